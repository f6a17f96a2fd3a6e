// Command hello is the floor of the process benchmarks: the least a Go
// command-line program costs to start, print a line and exit on the same
// machine, built the same way as agents. bench/cli.sh reports every figure
// of agents as a multiple of it.
package main

import (
	"fmt"
	"os"
)

func main() { fmt.Fprintln(os.Stdout, "hello, world") }
