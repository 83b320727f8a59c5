package expr

import (
	"fmt"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
)

// productMisplaced is the error of product() where it reads nothing.
const productMisplaced = `product("Column") reads a cell of the product's row in the main file, for the rows of a joined file: use it in the variant, options, tiers and join.skip sections of a mapping with join; or, in a mapping whose group.key has fill_down, a cell of the row that gives the product's key: use it in the variant, options, tiers and skip sections`

// productCall rewrites product("Name") in a joined row's expression into
// the cell of the product's row it reads.
func (p *colPatcher) productCall(node *ast.Node, n *ast.CallNode) {
	s, ok := argString(n, 0)
	switch {
	case !ok || len(n.Arguments) != 1:
		p.bad = `product() takes one column name of the main file in quotes, like product("Price tax excluded")`
		return
	}
	k, ok := 0, false
	if p.products != nil {
		k, ok = p.products[s]
	}
	if !ok {
		p.bad = fmt.Sprintf("product(%q): %s", s, productMisplaced)
		return
	}
	p.fromProduct = append(p.fromProduct, ProductUse{s, k})
	m := &ast.MemberNode{Node: &ast.IdentifierNode{Value: productCellsName}, Property: &ast.IntegerNode{Value: k}}
	m.SetType(stringType)
	ast.Patch(node, m)
}

// ProductColumns are the columns that the product("Column") calls of src
// read, in order of appearance; none when src does not parse (Compile
// says why).
func ProductColumns(src string) []string { return scan(src).products }

// names are what scan finds in an expression before it is compiled.
type names struct {
	// declared are the names it declares with let, which name no column.
	declared []string
	// products are the columns its product("Column") calls read.
	products []string
}

// scan parses src for its names; none when src does not parse.
func scan(src string) names {
	var out names
	tree, err := parser.Parse(src)
	if err != nil {
		return out
	}
	ast.Find(tree.Node, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.VariableDeclaratorNode:
			out.declared = append(out.declared, n.Name)
		case *ast.CallNode:
			if id, ok := n.Callee.(*ast.IdentifierNode); ok && id.Value == "product" {
				if s, ok := argString(n, 0); ok {
					out.products = append(out.products, s)
				}
			}
		}
		return false
	})
	return out
}
