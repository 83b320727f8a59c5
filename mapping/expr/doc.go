// Package expr is the expression language of mapping files: expressions
// over a row's cells (github.com/expr-lang/expr), with columns named bare
// or as col("Its Name"), `value` and `match`, the helpers (number, shift,
// date, default, lookup, kv, list, text, weight, length, pairs, dropLast,
// product) and the limits on what an expression may make.
//
// A Compiler compiles expressions against one file's header, once; a
// Machine runs them over its rows. The language's reference, for the
// people who write mappings, is package mapping's documentation
// (go doc lading/mapping), under Expressions.
package expr
