package images

import "fmt"

// Error says why an image could not be had: what happened (Reason) and
// what to do about it (Advice), in the words of the person running the
// import.
type Error struct {
	Source string
	Reason string
	Advice string
	// Temporary says the same fetch may work later (a timeout, a server
	// error): Advice then says to try again.
	Temporary bool
	// timeout says the download took longer than it may: it is not
	// tried again within the import, which would double the wait.
	timeout bool
}

func (e *Error) Error() string {
	return fmt.Sprintf("image %s: %s", e.Source, e.Reason)
}
