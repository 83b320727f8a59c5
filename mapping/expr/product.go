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
func ProductColumns(src string) []string {
	tree, err := parser.Parse(src)
	if err != nil {
		return nil
	}
	var out []string
	ast.Find(tree.Node, func(n ast.Node) bool {
		c, ok := n.(*ast.CallNode)
		if !ok {
			return false
		}
		if id, ok := c.Callee.(*ast.IdentifierNode); ok && id.Value == "product" {
			if s, ok := argString(c, 0); ok {
				out = append(out, s)
			}
		}
		return false
	})
	return out
}
