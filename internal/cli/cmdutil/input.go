package cmdutil

import (
	"io"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/strictyaml"
)

// Stdin is the file name that stands for standard input in --config, as in
// most tools.
const Stdin = "-"

// StdinName is how standard input is named in messages.
const StdinName = "<stdin>"

// ReadInput reads the file a --config flag names, "-" meaning standard
// input, with the same 1 MiB bound either way. It returns the content and
// the name to give the file in messages.
func (d *Deps) ReadInput(path string) ([]byte, string, error) {
	if path != Stdin {
		data, err := strictyaml.ReadFile(path)
		return data, path, err
	}
	data, err := io.ReadAll(io.LimitReader(d.IO.In, strictyaml.MaxFileSize+1))
	if err != nil {
		return nil, StdinName, errs.Wrap(errs.KindInternal, err, "cannot read standard input")
	}
	if len(data) > strictyaml.MaxFileSize {
		return nil, StdinName, errs.InvalidProblems(StdinName, []errs.Problem{{File: StdinName,
			Message: "is larger than 1 MiB, the limit"}})
	}
	return data, StdinName, nil
}
