package safetypack

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"
)

// Mode says what a violated boundary does to a decision, as Kubernetes
// Pod Security's modes do: enforce refuses, warn lets the decision
// through with a warning, audit only reports (in 'safety-pack check').
type Mode string

// The enforcement modes, strictest first.
const (
	ModeEnforce Mode = "enforce"
	ModeWarn    Mode = "warn"
	ModeAudit   Mode = "audit"
)

// Modes lists the enforcement modes, strictest first.
var Modes = []Mode{ModeEnforce, ModeWarn, ModeAudit}

// strictness orders the modes: a higher value refuses more.
func (m Mode) strictness() int {
	switch m {
	case ModeEnforce:
		return 3
	case ModeWarn:
		return 2
	case ModeAudit:
		return 1
	}
	return 0
}

// The bounds on a predicate. A predicate longer than MaxPredicateLength
// bytes or of more than MaxPredicateNodes syntax nodes is refused when the
// pack loads. Before each evaluation the predicate's worst-case cost over
// the context it is given is worked out (every loop taken as turning over
// the longest list in the context, every string operation as scanning the
// longest string); a predicate whose bound exceeds MaxPredicateCost is not
// run and violates its boundary.
const (
	MaxPredicateLength = 2048
	MaxPredicateNodes  = 200
	MaxPredicateCost   = 1_000_000
)

// predicateMemoryBudget bounds what the evaluator itself may allocate
// (array and map literals, loop results).
const predicateMemoryBudget = 10_000

// PredicateFunctions are the only functions a predicate may call. Time
// (now, date), parsing and conversion functions are left out: a boundary
// is judged on the documents alone, the same way each time.
var PredicateFunctions = []string{"all", "any", "none", "one", "count", "filter", "map", "len", "lower", "upper", "trim", "abs", "min", "max"}

// loopFunctions take a predicate body run once per element.
var loopFunctions = []string{"all", "any", "none", "one", "count", "filter", "map"}

// scanOperators scan a whole string or list.
var scanOperators = []string{"in", "not in", "contains", "not contains", "startsWith", "not startsWith", "endsWith", "not endsWith", "matches", "not matches", "+", "==", "!="}

// compiled is a boundary predicate compiled against the typed context.
type compiled struct {
	source  string
	program *vm.Program
	// lit and factor are what the predicate's own lists and strings add
	// to its cost bound (see growth): the same for every evaluation.
	lit    int
	factor float64
}

// compilePredicate parses and type-checks a predicate against the context
// documents and checks its bounds. Errors are single lines fit for a
// problem list.
func compilePredicate(src string) (*compiled, error) {
	if strings.TrimSpace(src) == "" {
		return nil, errors.New("must not be blank")
	}
	if len(src) > MaxPredicateLength {
		return nil, fmt.Errorf("is %d bytes long; at most %d are allowed", len(src), MaxPredicateLength)
	}
	program, err := compileProgram(src)
	if err != nil {
		return nil, compileError(err)
	}
	root := program.Node()
	if err := checkShape(root); err != nil {
		return nil, err
	}
	lit, factor := growth(program.Node())
	return &compiled{source: src, program: program, lit: lit, factor: factor}, nil
}

// predicateConfig is the compiler's configuration for predicates, made
// once: making it (the builtin table, the environment's types) costs more
// than compiling a short predicate.
var predicateConfig = sync.OnceValue(func() *conf.Config {
	c := conf.CreateNew()
	opts := []expr.Option{
		expr.Env(policyEnv{}),
		expr.AsBool(),
		expr.MaxNodes(MaxPredicateNodes),
		expr.DisableAllBuiltins(),
		// Unoptimised, the tree that runs is the tree written: the shape
		// checks and the cost bound judge what the author wrote.
		expr.Optimize(false),
	}
	for _, f := range PredicateFunctions {
		opts = append(opts, expr.EnableBuiltin(f))
	}
	for _, op := range opts {
		op(c)
	}
	for name := range c.Disabled {
		delete(c.Builtins, name)
	}
	c.Check()
	return c
})

// compileMu serialises compilations, which share predicateConfig and its
// type cache.
var compileMu sync.Mutex

// compileProgram parses, type-checks and compiles src as expr.Compile
// does, with the shared configuration.
func compileProgram(src string) (*vm.Program, error) {
	compileMu.Lock()
	defer compileMu.Unlock()
	cfg := predicateConfig()
	tree, err := checker.ParseCheck(src, cfg)
	if err != nil {
		return nil, err
	}
	return compiler.Compile(tree, cfg)
}

// compileError reduces expr's error, which quotes the source over several
// lines, to one line with the column.
func compileError(err error) error {
	if strings.Contains(err.Error(), "maximum allowed nodes") {
		return fmt.Errorf("has more than %d syntax nodes; split it or simplify it", MaxPredicateNodes)
	}
	var fe *file.Error
	if errors.As(err, &fe) {
		msg := docNames.Replace(fe.Message)
		if fe.Column >= 0 && fe.Line > 0 {
			return fmt.Errorf("does not compile: %s (column %d)", msg, fe.Column+1)
		}
		return fmt.Errorf("does not compile: %s", msg)
	}
	msg, _, _ := strings.Cut(err.Error(), "\n")
	return fmt.Errorf("does not compile: %s", docNames.Replace(msg))
}

// checkShape refuses what the evaluator could run but a boundary should
// not: functions outside PredicateFunctions, ranges (a loop over data the
// predicate makes up), calls, and regular expressions built at run time.
func checkShape(root ast.Node) error {
	var err error
	ast.Find(root, func(n ast.Node) bool {
		if err != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.BuiltinNode:
			if !slices.Contains(PredicateFunctions, n.Name) {
				err = fmt.Errorf("calls %s, which a predicate may not; it may call %s", n.Name, strings.Join(PredicateFunctions, ", "))
			}
		case *ast.CallNode:
			err = errors.New("calls a function, which a predicate may not; it may call " + strings.Join(PredicateFunctions, ", "))
		case *ast.BinaryNode:
			switch {
			case n.Operator == "..":
				err = errors.New("uses a range (..), which a predicate may not: loop over the context's lists instead")
			case strings.HasSuffix(n.Operator, "matches"):
				if _, ok := n.Right.(*ast.StringNode); !ok {
					err = errors.New("matches against a pattern that is not a string literal")
				}
			}
		}
		return false
	})
	return err
}

// cost returns the worst-case cost of evaluating the node: one unit per
// node, a loop's body once per element of the longest list, a scan of a
// string or list once per element (strings by 16 bytes, which native code
// scans at about the cost of one step).
func cost(n ast.Node, list, str int) float64 {
	if n == nil {
		return 0
	}
	scan := float64(max(list, str/16)) + 1
	switch n := n.(type) {
	case *ast.BuiltinNode:
		c := 1.0
		for _, a := range n.Arguments {
			if p, ok := a.(*ast.PredicateNode); ok {
				c += float64(list+1) * (cost(p.Node, list, str) + 1)
				continue
			}
			c += cost(a, list, str)
		}
		if !slices.Contains(loopFunctions, n.Name) && n.Name != "len" {
			c += scan
		}
		return c
	case *ast.BinaryNode:
		c := 1 + cost(n.Left, list, str) + cost(n.Right, list, str)
		if slices.Contains(scanOperators, n.Operator) {
			c += scan
		}
		return c
	case *ast.PredicateNode:
		return float64(list+1) * (cost(n.Node, list, str) + 1)
	}
	c := 1.0
	for _, child := range children(n) {
		c += cost(child, list, str)
	}
	return c
}

// growth returns the longest list or string literal of a predicate, and
// how many times over a list or a string can grow past what it starts
// from: twice for each + that joins lists or strings (or values whose type
// the checker could not tell), since a let can bind the result of one and
// the next join it to itself.
func growth(root ast.Node) (lit int, factor float64) {
	factor = 1
	ast.Find(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ArrayNode:
			lit = max(lit, len(n.Nodes))
		case *ast.StringNode:
			lit = max(lit, len(n.Value))
		case *ast.BinaryNode:
			if n.Operator == "+" && joins(n.Type()) {
				factor *= 2
			}
		}
		return false
	})
	return lit, factor
}

// joins reports whether + on values of type t may join them (strings,
// lists, or a type unknown before the run) rather than add numbers.
func joins(t reflect.Type) bool {
	if t == nil {
		return true
	}
	switch t.Kind() {
	case reflect.String, reflect.Slice, reflect.Array, reflect.Interface:
		return true
	}
	return false
}

// grown is n times factor, as a length the cost can be worked out with:
// past the budget it is the budget and one, which no loop or scan fits.
func grown(n int, factor float64) int {
	if g := float64(n) * factor; g <= MaxPredicateCost {
		return int(g)
	}
	return MaxPredicateCost + 1
}

// children lists a node's direct children for the nodes cost does not
// handle itself.
func children(n ast.Node) []ast.Node {
	switch n := n.(type) {
	case *ast.UnaryNode:
		return []ast.Node{n.Node}
	case *ast.ChainNode:
		return []ast.Node{n.Node}
	case *ast.MemberNode:
		return []ast.Node{n.Node, n.Property}
	case *ast.SliceNode:
		return []ast.Node{n.Node, n.From, n.To}
	case *ast.CallNode:
		return append([]ast.Node{n.Callee}, n.Arguments...)
	case *ast.ConditionalNode:
		return []ast.Node{n.Cond, n.Exp1, n.Exp2}
	case *ast.VariableDeclaratorNode:
		return []ast.Node{n.Value, n.Expr}
	case *ast.SequenceNode:
		return n.Nodes
	case *ast.ArrayNode:
		return n.Nodes
	case *ast.MapNode:
		return n.Pairs
	case *ast.PairNode:
		return []ast.Node{n.Key, n.Value}
	}
	return nil
}

// eval judges the predicate in env. A true result upholds the boundary;
// anything else (false, an error, a result that is not a boolean, a cost
// bound over budget) violates it, and the reason says which.
func (c *compiled) eval(env *policyEnv, list, str int) (upheld bool, reason string) {
	// Lists and strings the predicate makes itself count too: a literal
	// longer than the context's longest, doubled by each + that joins two
	// (a let can bind what one + made, and the next join it to itself).
	list, str = grown(max(list, c.lit), c.factor), grown(max(str, c.lit), c.factor)
	if bound := cost(c.program.Node(), list, str); bound > MaxPredicateCost {
		return false, fmt.Sprintf("not evaluated: over this context its cost could reach %.0f, above the budget of %d", bound, MaxPredicateCost)
	}
	out, err := run(c.program, env)
	if err != nil {
		return false, "the predicate failed: " + evalError(err)
	}
	b, ok := out.(bool)
	if !ok {
		return false, fmt.Sprintf("the predicate gave %v, not true or false", out)
	}
	if !b {
		return false, "the predicate is false"
	}
	return true, "the predicate holds"
}

// run evaluates a program with a bounded memory budget, turning a panic
// into an error.
func run(p *vm.Program, env *policyEnv) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	machine := vm.VM{MemoryBudget: predicateMemoryBudget}
	return machine.Run(p, env)
}

func evalError(err error) string {
	var fe *file.Error
	if errors.As(err, &fe) {
		msg := docNames.Replace(fe.Message)
		if fe.Column >= 0 && fe.Line > 0 {
			return fmt.Sprintf("%s (column %d)", msg, fe.Column+1)
		}
		return msg
	}
	msg, _, _ := strings.Cut(err.Error(), "\n")
	return docNames.Replace(msg)
}
