// Command exprfloor is bench/hello with the expression library that
// safety pack predicates are written in (github.com/expr-lang/expr)
// linked in and unused: what it costs over bench/hello is what linking the
// library alone costs every agents process, whatever the command, before
// any predicate is compiled. See docs/safety-packs.md for the figures and
// for the library it was weighed against.
package main

import (
	"fmt"
	"os"

	"github.com/expr-lang/expr"
)

// compile keeps the library linked without calling it.
var compile = expr.Compile

func main() {
	if len(os.Args) > 1<<20 {
		_, _ = compile(os.Args[1])
	}
	fmt.Fprintln(os.Stdout, "hello, world")
}
