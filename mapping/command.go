package mapping

import (
	"fmt"
	"strings"
)

// Command is what a catalog row asks of an import (command:): CommandNone
// leaves it to the import's mode.
type Command string

// Commands, as a row writes them (in any case, spaces around them
// trimmed).
const (
	CommandNone    Command = ""
	CommandUpsert  Command = "upsert"
	CommandCreate  Command = "create"
	CommandUpdate  Command = "update"
	CommandArchive Command = "archive"
	CommandDelete  Command = "delete"
	CommandSkip    Command = "skip"
)

// Commands are the commands a row may give, in the order messages list
// them.
var Commands = []Command{CommandUpsert, CommandCreate, CommandUpdate, CommandArchive, CommandDelete, CommandSkip}

// ParseCommand reads a command as a row gives it: in any case, trimmed;
// "" is CommandNone. ok is false for a word that is no command.
func ParseCommand(s string) (c Command, ok bool) {
	c = Command(strings.ToLower(strings.TrimSpace(s)))
	if c == CommandNone {
		return c, true
	}
	for _, k := range Commands {
		if c == k {
			return c, true
		}
	}
	return CommandNone, false
}

// commandChoices lists the commands for a message.
func commandChoices() string {
	words := make([]string, len(Commands))
	for i, c := range Commands {
		words[i] = string(c)
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// command evaluates the row's command into out.Command. A variant row may
// only delete its variant: the other commands are its product's, said
// on the product's row.
func (p *Program) command(row []string, out *Row) {
	if p.cmd == nil {
		return
	}
	s := p.text(p.cmd, row, out)
	c, ok := ParseCommand(s)
	switch {
	case !ok:
		p.fieldError(p.cmd, out, p.errValue(p.cmd, row), fmt.Sprintf("is no command: give %s, or leave it empty for the import's mode", commandChoices()))
	case out.Role == RoleVariant && c == CommandUpsert:
		// A variant row's upsert is its product's, as an empty cell.
	case out.Role == RoleVariant && c != CommandNone && c != CommandDelete:
		p.fieldError(p.cmd, out, p.errValue(p.cmd, row), fmt.Sprintf("a variant row may say delete (to delete its variant) or nothing: %s is said of a product, on its product's row", c))
	default:
		out.Command = c
	}
}
