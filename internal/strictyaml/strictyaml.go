// Package strictyaml decodes YAML configuration strictly, by walking parsed
// nodes instead of unmarshalling into Go values. The YAML library is lenient
// where a safety configuration must not be: it turns quoted "yes" into a
// bool, truncates 1.5 into an int field, lets .nan through range checks and
// reads 123 or ~ into a string. A Decoder checks the YAML type of every
// value, rejects unknown and duplicate keys, bounds alias and merge-key
// expansion, and collects every problem with its field path and line, so
// one run reports all that is wrong with a file.
//
// A typical decoder:
//
//	d := strictyaml.NewDecoder(file)
//	root, ok := d.Root(data)
//	if !ok {
//		return d.Err()
//	}
//	for _, f := range d.Fields(strictyaml.At("", root), known) {
//		switch f.Key {
//		case "name":
//			name, _ = d.String(f)
//		case "enabled":
//			enabled, _ = d.Bool(f)
//		}
//	}
//	return d.Err()
//
// Decode does the first and the last steps for a decoder that returns a
// value, and Decoder.Each the loop for a mapping whose fields are known.
package strictyaml

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unicode"
	"unicode/utf8"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/safefile"
	"github.com/agentsctl/agents/internal/suggest"
	"go.yaml.in/yaml/v3"
)

// MaxFileSize is the largest document accepted: 1 MiB.
const MaxFileSize = 1 << 20

// MaxProblems bounds the problems kept for one file. A hostile file can
// hold hundreds of thousands of errors; past this many, the rest are only
// counted.
const MaxProblems = 100

// MaxAliasUses bounds how many alias resolutions and merged entries one
// document may need. Ordinary files use a handful; an alias bomb needs
// billions.
const MaxAliasUses = 10000

// maxMergeDepth bounds merge keys whose merged mappings hold merge keys.
const maxMergeDepth = 16

// Short YAML tags.
const (
	tagStr       = "!!str"
	tagInt       = "!!int"
	tagFloat     = "!!float"
	tagBool      = "!!bool"
	tagNull      = "!!null"
	tagMap       = "!!map"
	tagSeq       = "!!seq"
	tagMerge     = "!!merge"
	tagTimestamp = "!!timestamp"
	tagBinary    = "!!binary"
)

// ReadFile reads a file named on the command line, to decode. As every
// file agents reads, it is opened without waiting and refused unless it is
// a regular file: a FIFO there would hang the command (standard input is
// read by naming "-" where a command takes it). It reads at most
// MaxFileSize+1 bytes, so a huge file is refused without being read whole.
// A missing file is KindNotFound; a file that is not a regular file, or is
// over MaxFileSize, is KindInvalid naming what it is; other I/O failures
// are KindInternal.
func ReadFile(path string) ([]byte, error) {
	data, err := safefile.ReadFile(path, MaxFileSize)
	var se *safefile.Error
	if errors.As(err, &se) && errors.Is(err, safefile.ErrNotRegular) {
		e := errs.InvalidProblems(path, []errs.Problem{{File: path, Message: se.Detail}})
		if fi, serr := os.Stat(path); serr == nil && fi.IsDir() {
			return nil, e.WithHint("name a file in it, not the folder")
		}
		return nil, e.WithHint("%s", NotRegularHint)
	}
	if e := NoSuchPath(err, path); e != nil {
		return nil, e
	}
	return data, ownFileError(path, err)
}

// NoSuchPath is the error of a file named on the command line that no
// file can be at: a path that runs through a file, or a name longer than
// the file system allows. The file is not there, as a missing one is not
// (errs.KindNotFound), rather than a failure of agents; nil for any other
// err.
func NoSuchPath(err error, path string) *errs.Error {
	switch {
	case errors.Is(err, syscall.ENOTDIR):
		return errs.NotFound("file not found: %s: a part of its path is a file, not a folder", path).
			WithHint("check the path; a relative one is read from the working folder")
	case errors.Is(err, syscall.ENAMETOOLONG):
		return errs.NotFound("file not found: %s: the name is longer than the file system allows", path).
			WithHint("check the path; a relative one is read from the working folder")
	}
	return nil
}

// NotRegularHint is the hint of ReadFile's refusal of a pipe or a device.
// It names no command: one that reads standard input where the file is
// named says so after it.
const NotRegularHint = "name a regular file: a pipe or device is not read, as it could leave the command waiting"

// ReadOwnFile reads a file agents keeps for itself rather than one named on
// the command line: config.yaml, a project's agents.yaml. It is ReadFile
// with the file opened without waiting (see safefile), and refused unless it
// is a regular file: a FIFO or a device there would otherwise hang every
// command that reads it. A missing file is KindNotFound; a file that is not
// a regular file, or is over MaxFileSize, is KindInvalid naming what it is;
// other I/O failures are KindInternal.
func ReadOwnFile(path string) ([]byte, error) {
	data, _, err := ReadOwnFileInfo(path)
	return data, err
}

// ReadOwnFileInfo is ReadOwnFile that also returns the metadata of the file
// read, taken when it was opened.
func ReadOwnFileInfo(path string) ([]byte, fs.FileInfo, error) {
	data, fi, err := safefile.ReadFileInfo(path, MaxFileSize)
	return data, fi, ownFileError(path, err)
}

func ownFileError(path string, err error) error {
	var se *safefile.Error
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return errs.NotFound("file not found: %s", path).WithHint("check the path; a relative one is read from the working folder")
	case errors.Is(err, safefile.ErrTooLarge):
		return tooLarge(path)
	case errors.As(err, &se):
		return errs.InvalidProblems(path, []errs.Problem{{File: path, Message: se.Detail}}).
			WithHint("%s must be a regular file holding YAML; remove what is there or replace it with one", path)
	case errors.Is(err, fs.ErrPermission):
		// What cannot be read cannot be vouched for: refused as input,
		// not taken for a failure of agents.
		return errs.Wrap(errs.KindInvalid, err, "cannot read %s", path).
			WithHint("make %s (and the folders on its path) readable by you", path)
	case errors.Is(err, syscall.ELOOP):
		return LoopError(err, path, "file", "cannot read %s", path)
	}
	return errs.Wrap(errs.KindInternal, err, "cannot read %s", path)
}

// LoopError is the refusal of path, a file or folder named to agents that
// is a link leading back to itself, or through too many links (err, the
// system's ELOOP): invalid input, as any file that cannot be read as one,
// with the hint to put the thing ("file", "folder") in the link's place.
// The message is format and a.
func LoopError(err error, path, thing, format string, a ...any) *errs.Error {
	return errs.Wrap(errs.KindInvalid, err, format, a...).
		WithHint("%s is a link that leads back to itself, or through too many links: replace it with the %s", path, thing)
}

func tooLarge(file string) error {
	return errs.InvalidProblems(file, []errs.Problem{tooLargeProblem(file)})
}

func tooLargeProblem(file string) errs.Problem {
	return errs.Problem{File: file, Message: fmt.Sprintf("file is larger than %d bytes (1 MiB), the limit", MaxFileSize)}
}

// Field is one entry of a mapping, or one item of a sequence, located by its
// field path.
type Field struct {
	// Key is the mapping key; "" for a sequence item.
	Key string
	// Path is the dotted field path, such as safety.max_retries_per_step
	// or guards.tool_denylist[2].
	Path string
	// KeyNode is the key's node; nil for a sequence item.
	KeyNode *yaml.Node
	// Node is the value as written, possibly an alias; its line is where
	// the value is used.
	Node *yaml.Node
	// Value is Node with aliases resolved.
	Value *yaml.Node
}

// Line returns the line where the field's value is written, or that of its
// key, or 0.
func (f Field) Line() int {
	switch {
	case f.Node != nil && f.Node.Line > 0:
		return f.Node.Line
	case f.KeyNode != nil:
		return f.KeyNode.Line
	}
	return 0
}

// IsNull reports whether the field's value is YAML null (~, null, or
// nothing at all).
func (f Field) IsNull() bool {
	return f.Value == nil || (f.Value.Kind == yaml.ScalarNode && f.Value.ShortTag() == tagNull)
}

// At returns a field for a node that is not inside a mapping, such as a
// document root or an inline value handed over by another decoder.
func At(path string, n *yaml.Node) Field {
	f := Field{Path: path, Node: n, Value: n}
	if n != nil && n.Kind == yaml.AliasNode {
		f.Value = n.Alias
	}
	return f
}

// Join returns the path of key inside the mapping at path.
func Join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// Index returns the path of item i of the sequence at path.
func Index(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

// Decoder walks the nodes of one document, collecting problems. It is not
// safe for concurrent use. The zero value is not usable; call NewDecoder.
type Decoder struct {
	file     string
	problems []errs.Problem
	dropped  int
	aliases  int
	bombed   bool
}

// NewDecoder returns a decoder whose problems name file.
func NewDecoder(file string) *Decoder {
	return &Decoder{file: file}
}

// Decode reads data, the document file names, with a new decoder: the
// document must be a mapping, which decode reads from its root. When any
// problem was found the value is T's zero and the error holds every
// problem, so no caller can use half a document.
func Decode[T any](data []byte, file string, decode func(d *Decoder, root Field) T) (T, error) {
	var zero T
	d := NewDecoder(file)
	root, ok := d.Root(data)
	if !ok {
		return zero, d.Err()
	}
	v := decode(d, At("", root))
	if err := d.Err(); err != nil {
		return zero, err
	}
	return v, nil
}

// File returns the file name problems carry.
func (d *Decoder) File() string { return d.file }

// Addf records a problem at path. n, if not nil, gives the line.
func (d *Decoder) Addf(path string, n *yaml.Node, format string, a ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	d.addAt(path, line, format, a...)
}

// AddProblems records problems found elsewhere (such as by a value
// validator), keeping the limit.
func (d *Decoder) AddProblems(ps []errs.Problem) {
	for _, p := range ps {
		if len(d.problems) >= MaxProblems {
			d.dropped++
			continue
		}
		if p.File == "" {
			p.File = d.file
		}
		d.problems = append(d.problems, p)
	}
}

// Fieldf records a problem about the field's value.
func (d *Decoder) Fieldf(f Field, format string, a ...any) {
	d.addAt(f.Path, f.Line(), format, a...)
}

func (d *Decoder) addAt(path string, line int, format string, a ...any) {
	if len(d.problems) >= MaxProblems {
		d.dropped++
		return
	}
	d.problems = append(d.problems, errs.Problem{File: d.file, Path: path, Line: line, Message: fmt.Sprintf(format, a...)})
}

// full reports whether no more problems will be kept, so callers can skip
// costly messages.
func (d *Decoder) full() bool { return len(d.problems) >= MaxProblems }

// OK reports whether no problem has been recorded.
func (d *Decoder) OK() bool { return len(d.problems) == 0 }

// Problems returns the problems recorded so far, with a last one counting
// those left out past MaxProblems.
//
// Problems are in line order (those without a line first), so a reader can
// walk down the file; problems on one line keep the order they were found.
func (d *Decoder) Problems() []errs.Problem {
	out := make([]errs.Problem, len(d.problems), len(d.problems)+1)
	copy(out, d.problems)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	if d.dropped > 0 {
		out = append(out, errs.Problem{
			File:    d.file,
			Message: fmt.Sprintf("%d more problems not shown", d.dropped),
		})
	}
	return out
}

// Err returns nil when no problem was recorded, and otherwise an
// invalid-input error (errs.KindInvalid) listing every problem.
func (d *Decoder) Err() error {
	if d.OK() {
		return nil
	}
	return errs.InvalidProblems(d.file, d.Problems())
}

// yamlErrRE is compiled on first use: only a file with a syntax error needs
// it, and a package-level regexp costs every process at start.
var yamlErrRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

// Parse parses data as exactly one YAML document and returns its root node.
// It refuses, with a problem each: data over MaxFileSize, NUL bytes, invalid
// UTF-8, YAML syntax errors, an empty document (nothing, or only comments)
// and a second document. A UTF-8 byte order mark and CRLF line ends are
// accepted. It never panics. The form agents writes is read without yaml.v3
// (see fastParse), into the same tree.
func Parse(data []byte, file string) (*yaml.Node, []errs.Problem) {
	prob := func(line int, format string, a ...any) []errs.Problem {
		return []errs.Problem{{File: file, Line: line, Message: fmt.Sprintf(format, a...)}}
	}
	if len(data) > MaxFileSize {
		return nil, []errs.Problem{tooLargeProblem(file)}
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		msg := "file contains a NUL byte (at offset %d); it must be UTF-8 text"
		if bytes.HasPrefix(data, []byte{0xff, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xff}) {
			msg = "file contains a NUL byte (at offset %d); it looks like UTF-16: save it as UTF-8"
		}
		return nil, prob(lineAt(data, i), msg, i)
	}
	if !utf8.Valid(data) {
		i := invalidUTF8At(data)
		return nil, prob(lineAt(data, i), "file is not valid UTF-8 (bad byte at offset %d)", i)
	}
	if root, ok := fastParse(data); ok {
		return root, nil
	}
	var doc, extra yaml.Node
	err := safeDecode(data, &doc, &extra)
	if err != nil && !errors.Is(err, errSecondDocument) {
		if errors.Is(err, io.EOF) {
			return nil, prob(0, "file is empty")
		}
		return nil, syntaxProblem(data, file, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, prob(0, "file is empty")
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == tagNull && root.Value == "" && root.Style == 0 {
		return nil, prob(0, "file is empty")
	}
	if err != nil {
		if extra.Kind == yaml.DocumentNode {
			return nil, prob(extra.Line, "file holds more than one YAML document (a second one starts at line %d); it must hold exactly one", extra.Line)
		}
		return nil, prob(0, "file holds more than one YAML document; it must hold exactly one")
	}
	return root, nil
}

var errSecondDocument = errors.New("second document")

// safeDecode decodes the first document into doc and tries a second one
// into extra. A parser panic (a bug in the library) becomes an error, never
// a crash.
func safeDecode(data []byte, doc, extra *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: the parser failed on this input: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(doc); err != nil {
		return err
	}
	switch err := dec.Decode(extra); {
	case err == nil:
		return errSecondDocument
	case errors.Is(err, io.EOF):
		return nil
	default:
		// The second document is broken; it is still a second document.
		*extra = yaml.Node{}
		return fmt.Errorf("%w: %w", errSecondDocument, err)
	}
}

func syntaxProblem(data []byte, file string, err error) []errs.Problem {
	msg := err.Error()
	line := 0
	if m := yamlErrRE().FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	if strings.Contains(msg, "invalid Unicode character escape") {
		// JSON writers (Python's json.dump among them) write a character
		// beyond U+FFFF as two \u escapes, a UTF-16 surrogate pair, which
		// YAML does not read: say so, and where. The escape YAML stopped
		// at is the first invalid one from the line it names (where the
		// quoted text starts): a \u escape elsewhere, in a comment or
		// another value, or an escape beyond U+10FFFF is not it.
		from := 0
		if line > 0 {
			from = lineStart(data, line)
		}
		if start, end, surrogate := badEscape(data, from); surrogate {
			line = lineAt(data, start)
			msg += fmt.Sprintf(" (%s is half of a UTF-16 surrogate pair, as JSON writers escape a character beyond U+FFFF; write the character itself, or as \\U followed by its 8 hex digits)", data[start:end])
		}
	}
	return []errs.Problem{{File: file, Line: line, Message: "invalid YAML: " + msg}}
}

// badEscape finds, from data[from:], the first \u or \U escape that names
// no character, as YAML reads escapes (an escaped backslash is skipped):
// where it starts and ends, and whether it is a UTF-16 surrogate (false
// when it is beyond U+10FFFF, or there is none).
func badEscape(data []byte, from int) (start, end int, surrogate bool) {
	for i := from; i+1 < len(data); i++ {
		if data[i] != '\\' {
			continue
		}
		n := map[byte]int{'u': 4, 'U': 8}[data[i+1]]
		if n == 0 || i+2+n > len(data) {
			i++ // the escaped character, a backslash say
			continue
		}
		v, err := strconv.ParseUint(string(data[i+2:i+2+n]), 16, 32)
		switch {
		case err != nil:
			i++
		case v >= 0xd800 && v <= 0xdfff:
			return i, i + 2 + n, true
		case v > 0x10ffff:
			return i, i + 2 + n, false
		default:
			i += 1 + n
		}
	}
	return 0, 0, false
}

// lineStart returns the offset in data where line (from 1) starts.
func lineStart(data []byte, line int) int {
	off := 0
	for ; line > 1; line-- {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return len(data)
		}
		off += i + 1
	}
	return off
}

func lineAt(data []byte, off int) int {
	return bytes.Count(data[:off], []byte{'\n'}) + 1
}

func invalidUTF8At(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(data)
}

// Root parses data (see Parse) and checks that the root is a mapping,
// recording problems. It reports false when there is nothing to walk.
func (d *Decoder) Root(data []byte) (*yaml.Node, bool) {
	root, ps := Parse(data, d.file)
	if len(ps) > 0 {
		d.AddProblems(ps)
		return nil, false
	}
	if !d.checkTag(At("", root)) {
		return nil, false
	}
	if root.Kind != yaml.MappingNode || root.ShortTag() != tagMap {
		d.addAt("", root.Line, "the document must be a mapping of field names to values, got %s", Describe(root))
		return nil, false
	}
	return root, true
}

// resolve follows an alias to its anchored node, counting the use against
// MaxAliasUses. It returns nil once the budget is spent.
func (d *Decoder) resolve(n *yaml.Node) *yaml.Node {
	if n == nil || n.Kind != yaml.AliasNode {
		return n
	}
	if !d.spend(n) || n.Alias == nil || n.Alias.Kind == yaml.AliasNode {
		return nil
	}
	return n.Alias
}

func (d *Decoder) spend(n *yaml.Node) bool {
	d.aliases++
	if d.aliases <= MaxAliasUses {
		return true
	}
	if !d.bombed {
		d.bombed = true
		d.Addf("", n, "too many alias or merge-key uses (more than %d); the document expands too far", MaxAliasUses)
	}
	return false
}

// Mapping returns every entry of the mapping in f, merge keys (<<) applied,
// in document order with merged entries after the explicit ones. It records
// a problem for a value that is not a mapping, a key that is not a string,
// a duplicate key (a second merge key in one mapping too) and a bad merge.
// It does not judge key names: see Fields.
func (d *Decoder) Mapping(f Field) ([]Field, bool) {
	if f.Value == nil {
		return nil, false
	}
	if !d.checkTag(f) {
		return nil, false
	}
	if f.Value.Kind != yaml.MappingNode || f.Value.ShortTag() != tagMap {
		d.Fieldf(f, "must be a mapping, got %s", Describe(f.Value))
		return nil, false
	}
	var stack [maxMergeDepth]*yaml.Node
	return d.mapping(f.Value, f.Path, stack[:0]), true
}

func (d *Decoder) mapping(n *yaml.Node, path string, stack []*yaml.Node) []Field {
	var idx fieldIndex
	idx.fields = make([]Field, 0, len(n.Content)/2)
	// One merge key per mapping: YAML keys are unique, and readers differ
	// on which of two << wins (the YAML library refuses the second, PyYAML
	// takes the last), so a second one is a duplicate key like any other.
	// A list of mappings is how to merge several.
	var merge, mergeKey *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		k := d.resolve(kn)
		if k == nil {
			continue
		}
		if k.Kind == yaml.ScalarNode && k.ShortTag() == tagMerge {
			if mergeKey != nil {
				d.Addf(Join(path, "<<"), kn, "duplicate key %s (first at line %d); to merge several mappings, list them in one: <<: [*a, *b]", quote(k.Value), mergeKey.Line)
				continue
			}
			merge, mergeKey = vn, kn
			continue
		}
		if k.Kind != yaml.ScalarNode || k.ShortTag() != tagStr {
			d.Addf(path, kn, "keys must be strings, got %s", Describe(k))
			continue
		}
		kp := Join(path, k.Value)
		if j := idx.find(k.Value); j >= 0 {
			d.Addf(kp, kn, "duplicate key %s (first at line %d)", quote(k.Value), idx.fields[j].KeyNode.Line)
			continue
		}
		v := d.resolve(vn)
		if v == nil {
			continue
		}
		idx.add(Field{Key: k.Value, Path: kp, KeyNode: kn, Node: vn, Value: v})
	}
	if merge == nil {
		return idx.fields
	}
	if len(stack) >= maxMergeDepth {
		d.Addf(path, n, "merge keys (<<) nest more than %d deep", maxMergeDepth)
		return idx.fields
	}
	stack = append(stack, n)
	// Explicit keys win over merged ones, and an earlier merged mapping
	// over a later one, as the YAML merge-key type says.
	for _, src := range d.mergeSources(merge, path) {
		if containsNode(stack, src) {
			d.Addf(path, merge, "merge key (<<) refers to a mapping that contains it")
			continue
		}
		for _, mf := range d.mapping(src, path, stack) {
			if !d.spend(merge) {
				return idx.fields
			}
			if idx.find(mf.Key) < 0 {
				idx.add(mf)
			}
		}
	}
	return idx.fields
}

// fieldIndex finds fields by key: by scanning while there are few, through
// a map once there are many, so a hostile mapping with a hundred thousand
// keys stays linear.
type fieldIndex struct {
	fields []Field
	byKey  map[string]int
}

func (x *fieldIndex) find(key string) int {
	if x.byKey != nil {
		if i, ok := x.byKey[key]; ok {
			return i
		}
		return -1
	}
	for i := range x.fields {
		if x.fields[i].Key == key {
			return i
		}
	}
	return -1
}

func (x *fieldIndex) add(f Field) {
	x.fields = append(x.fields, f)
	if x.byKey != nil {
		x.byKey[f.Key] = len(x.fields) - 1
		return
	}
	if len(x.fields) > 32 {
		x.byKey = make(map[string]int, 2*len(x.fields))
		for i, g := range x.fields {
			x.byKey[g.Key] = i
		}
	}
}

func containsNode(stack []*yaml.Node, n *yaml.Node) bool {
	for _, s := range stack {
		if s == n {
			return true
		}
	}
	return false
}

// mergeSources returns the mappings a merge key's value names: one mapping,
// or a sequence of mappings.
func (d *Decoder) mergeSources(v *yaml.Node, path string) []*yaml.Node {
	r := d.resolve(v)
	if r == nil {
		return nil
	}
	switch r.Kind {
	case yaml.MappingNode:
		if !d.checkTag(Field{Path: path, Node: v, Value: r}) {
			return nil
		}
		return []*yaml.Node{r}
	case yaml.SequenceNode:
		out := make([]*yaml.Node, 0, len(r.Content))
		for _, item := range r.Content {
			m := d.resolve(item)
			if m == nil {
				return out
			}
			if m.Kind != yaml.MappingNode {
				d.Addf(path, item, "a merge key (<<) list must hold mappings, got %s", Describe(m))
				continue
			}
			out = append(out, m)
		}
		return out
	}
	d.Addf(path, v, "a merge key (<<) must name a mapping or a list of mappings, got %s", Describe(r))
	return nil
}

// Fields is Mapping with every key checked against known: an unknown key is
// a problem suggesting the nearest known one. Only known fields are
// returned.
func (d *Decoder) Fields(f Field, known []string) []Field {
	all, _ := d.Mapping(f)
	out := all[:0]
	for _, e := range all {
		if contains(known, e.Key) {
			out = append(out, e)
			continue
		}
		d.Unknown(e, known)
	}
	return out
}

// Each hands each field of the mapping f whose key is among known to
// each, in order, reports every other key as unknown and, when f is a
// mapping, reports every key of required that it lacks: the loop of a
// document whose fields are known in advance.
func (d *Decoder) Each(f Field, known, required []string, each func(Field)) {
	seen := make(map[string]bool, len(known))
	for _, e := range d.Fields(f, known) {
		seen[e.Key] = true
		each(e)
	}
	if f.Value == nil || f.Value.Kind != yaml.MappingNode {
		return
	}
	for _, k := range required {
		if !seen[k] {
			d.Addf(Join(f.Path, k), f.Value, "is required")
		}
	}
}

// Unknown records that e's key is not a known field, suggesting the nearest
// of known.
func (d *Decoder) Unknown(e Field, known []string) {
	if d.full() {
		d.dropped++
		return
	}
	if s := suggest.Key(e.Key, known); s != "" {
		d.Addf(e.Path, e.KeyNode, "unknown field %s (did you mean %q?)", quote(e.Key), s)
		return
	}
	d.Addf(e.Path, e.KeyNode, "unknown field %s", quote(e.Key))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Seq returns the items of the sequence in f, each with its indexed path. A
// value that is not a sequence is a problem.
func (d *Decoder) Seq(f Field) ([]Field, bool) {
	if f.Value == nil || !d.checkTag(f) {
		return nil, false
	}
	if f.Value.Kind != yaml.SequenceNode || f.Value.ShortTag() != tagSeq {
		d.Fieldf(f, "must be a list, got %s", Describe(f.Value))
		return nil, false
	}
	out := make([]Field, 0, len(f.Value.Content))
	for i, item := range f.Value.Content {
		v := d.resolve(item)
		if v == nil {
			return out, false
		}
		out = append(out, Field{Path: Index(f.Path, i), Node: item, Value: v})
	}
	return out, true
}

// checkTag records a problem when f's value carries a tag outside the YAML
// core schema, such as !custom or !!python/object.
func (d *Decoder) checkTag(f Field) bool {
	if f.Value == nil {
		return false
	}
	switch tag := f.Value.ShortTag(); tag {
	case tagStr, tagInt, tagFloat, tagBool, tagNull, tagMap, tagSeq, tagTimestamp, tagBinary, tagMerge:
		return true
	default:
		d.Fieldf(f, "unsupported tag %s", quote(tag))
		return false
	}
}

func (d *Decoder) scalar(f Field, want string) (*yaml.Node, bool) {
	if !d.checkTag(f) {
		return nil, false
	}
	if f.Value.Kind != yaml.ScalarNode {
		d.Fieldf(f, "must be %s, got %s", want, Describe(f.Value))
		return nil, false
	}
	return f.Value, true
}

// String returns f's value, which must be a YAML string: 123, true and ~
// are not. A string holding a NUL character is refused too.
func (d *Decoder) String(f Field) (string, bool) {
	n, ok := d.scalar(f, "a string")
	if !ok {
		return "", false
	}
	if n.ShortTag() != tagStr {
		if n.ShortTag() == tagNull {
			d.Fieldf(f, "must be a string, got null")
		} else {
			d.Fieldf(f, "must be a string, got %s (put it in quotes if it is meant as text)", Describe(n))
		}
		return "", false
	}
	if strings.IndexByte(n.Value, 0) >= 0 {
		d.Fieldf(f, "must not contain a NUL character")
		return "", false
	}
	return n.Value, true
}

// OptString is String that also accepts null, returning nil for it.
func (d *Decoder) OptString(f Field) (*string, bool) { return opt(f, d.String) }

// opt reads f with get, or null as nil: what every Opt method does.
func opt[T any](f Field, get func(Field) (T, bool)) (*T, bool) {
	if f.IsNull() {
		return nil, true
	}
	v, ok := get(f)
	if !ok {
		return nil, false
	}
	return &v, true
}

// Bool returns f's value, which must be the plain word true or false. The
// YAML 1.1 words (yes, no, on, off), other spellings the library reads as
// booleans (True, FALSE) and quoted text, tagged !!bool or not, are
// refused: a reader other than the YAML library may take them as strings.
func (d *Decoder) Bool(f Field) (bool, bool) {
	n, ok := d.scalar(f, "true or false")
	if !ok {
		return false, false
	}
	if n.ShortTag() != tagBool {
		d.Fieldf(f, "must be true or false, got %s", Describe(n))
		return false, false
	}
	switch {
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		d.Fieldf(f, "must be true or false, got %s as block text; write true or false on the key's line", quote(n.Value))
	case n.Style&^yaml.TaggedStyle != 0:
		d.Fieldf(f, "must be true or false, got %s in quotes; write true or false, without quotes", quote(n.Value))
	case n.Value == "true":
		return true, true
	case n.Value == "false":
		return false, true
	default:
		d.Fieldf(f, "must be true or false, got %s; write true or false, in lower case", shorten(n.Value))
	}
	return false, false
}

// Int returns f's value, which must be a YAML integer written in plain
// decimal that fits in 64 bits: 1.5, 3.0, "3" and overflowing numbers are
// refused, and so are 010, 0x1f, 0o7, 0b11, 1_000 and +3, which YAML
// readers do not all read alike (010 is 8 to some, 10 to others).
func (d *Decoder) Int(f Field) (int64, bool) {
	n, ok := d.number(f, "an integer")
	if !ok {
		return 0, false
	}
	switch n.ShortTag() {
	case tagInt:
		if !isPlainDecimal(n.Value) {
			d.notDecimal(f, n, "an integer")
			return 0, false
		}
		v, err := ParseInt(n.Value)
		if err != nil {
			d.Fieldf(f, "integer %s is out of range", shorten(n.Value))
			return 0, false
		}
		return v, true
	case tagFloat:
		switch {
		case isPlainDecimal(n.Value) && n.Style&yaml.TaggedStyle != 0:
			// Written as an integer, and tagged a float.
			d.Fieldf(f, "must be an integer, got %s tagged %s; write it without the tag", shorten(n.Value), n.Tag)
			return 0, false
		case isPlainDecimal(n.Value):
			// Too large even for the resolver's unsigned integers.
			d.Fieldf(f, "integer %s is out of range", shorten(n.Value))
			return 0, false
		case isIntegerText(n.Value):
			d.notDecimal(f, n, "an integer")
			return 0, false
		}
	}
	d.Fieldf(f, "must be an integer, got %s", Describe(n))
	return 0, false
}

// number returns f's value for Int and Float, which want names: a
// scalar, and not a number written in quotes or as block text and tagged
// to be read as one (!!int "7"), since quoted text is a string to every
// reader that does not honour the tag, as Bool refuses it too.
func (d *Decoder) number(f Field, want string) (*yaml.Node, bool) {
	n, ok := d.scalar(f, want)
	if !ok {
		return nil, false
	}
	if t := n.ShortTag(); (t == tagInt || t == tagFloat) && n.Style&^yaml.TaggedStyle != 0 {
		d.Fieldf(f, "must be %s, got %s in quotes or as text; write the number without quotes", want, quote(n.Value))
		return nil, false
	}
	return n, true
}

// notDecimal records that n, a number, is not written in plain decimal,
// and how to write it.
func (d *Decoder) notDecimal(f Field, n *yaml.Node, want string) {
	d.Fieldf(f, "must be %s written in plain decimal, got %s; write a plain decimal number (no leading zero, +, _, 0x, 0o or 0b)", want, shorten(n.Value))
}

// OptInt is Int that also accepts null, returning nil for it.
func (d *Decoder) OptInt(f Field) (*int64, bool) { return opt(f, d.Int) }

// Float returns f's value, which must be a finite YAML number (an integer
// is accepted) written in plain decimal: digits with an optional leading
// -, a fraction and an exponent, as in 0.5, .5, 3 or 1e-3. .nan, .inf,
// 1e400 and strings are refused, and so are the forms Int refuses (010,
// 0x10, 1_000, +3) and, for the same reason, 1_0.5, +0.5, 00.5 and a
// hexadecimal float tagged !!float 0x1p-2; -0.0 reads as 0.
func (d *Decoder) Float(f Field) (float64, bool) {
	n, ok := d.number(f, "a number")
	if !ok {
		return 0, false
	}
	switch n.ShortTag() {
	case tagInt:
		if !isPlainDecimal(n.Value) {
			d.notDecimal(f, n, "a number")
			return 0, false
		}
		v, err := ParseInt(n.Value)
		if err != nil {
			// Past int64, yet still a number; ParseFloat rounds it.
			fv, ferr := strconv.ParseFloat(n.Value, 64)
			if ferr != nil {
				d.Fieldf(f, "must be a number, got %s", shorten(n.Value))
				return 0, false
			}
			return fv, true
		}
		return float64(v), true
	case tagFloat:
		v, err := strconv.ParseFloat(n.Value, 64)
		if isNonFinite(n.Value) || (err == nil && (v != v || v > maxFloat || v < -maxFloat)) {
			d.Fieldf(f, "must be a finite number, got %s", shorten(n.Value))
			return 0, false
		}
		if !isDecimalNumber(n.Value) {
			d.notDecimal(f, n, "a number")
			return 0, false
		}
		if err != nil {
			if errors.Is(err, strconv.ErrRange) {
				d.Fieldf(f, "number %s is out of range; it must be finite", shorten(n.Value))
			} else {
				d.Fieldf(f, "must be a number, got %s", shorten(n.Value))
			}
			return 0, false
		}
		// ParseFloat rounds a number too small for a float64 to 0 (or to a
		// subnormal) without an error: 1e-400 would read as 0, which for a
		// threshold means "automatic". Only a literal 0 may be 0.
		if LosesPrecision(n.Value, v) {
			d.Fieldf(f, "number %s is closer to 0 than the smallest number read at full precision, %g (it would read as %g, or lose digits); write 0, or a number of at least %g", shorten(n.Value), MinNormal, v, MinNormal)
			return 0, false
		}
		if v == 0 {
			v = 0 // -0.0 reads as 0
		}
		return v, true
	case tagStr:
		// The resolver leaves 1e400 a string because it does not fit.
		if n.Style == 0 {
			if _, err := strconv.ParseFloat(n.Value, 64); errors.Is(err, strconv.ErrRange) {
				d.Fieldf(f, "number %s is out of range; it must be finite", shorten(n.Value))
				return 0, false
			}
		}
	}
	d.Fieldf(f, "must be a number, got %s", Describe(n))
	return 0, false
}

const maxFloat = 1.7976931348623157e308

// MinNormal is the smallest normal float64: below it a number loses
// precision, and far enough below it becomes 0.
const MinNormal = 2.2250738585072014e-308

// LosesPrecision reports whether v, read from the decimal literal lit, is
// a number other than 0 written too close to 0 to be read at full
// precision: 1e-400 reads as 0 (for a threshold, "automatic"), 5e-324 as
// a number with one digit left. Only a literal 0 may read as 0.
func LosesPrecision(lit string, v float64) bool {
	return v < MinNormal && v > -MinNormal && nonZeroDigits(lit)
}

// nonZeroDigits reports whether the significand of a YAML float literal
// (the digits before any exponent) holds a digit other than 0: whether it
// is written as a number other than zero.
func nonZeroDigits(lit string) bool {
	for i := 0; i < len(lit); i++ {
		switch c := lit[i]; {
		case c == 'e' || c == 'E':
			return false
		case '1' <= c && c <= '9':
			return true
		}
	}
	return false
}

// OptFloat is Float that also accepts null, returning nil for it.
func (d *Decoder) OptFloat(f Field) (*float64, bool) { return opt(f, d.Float) }

// Hidden reports whether r is a control or format character, a line or
// paragraph separator, a variation selector, or another character Unicode
// says to show as nothing (a Hangul filler): one a reader may show as
// nothing, break a line at, or drop. The replacement character counts
// too: it stands where bytes that are not UTF-8 were, which one reader
// drops and another replaces, so each would see another name.
func Hidden(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) ||
		r == utf8.RuneError ||
		unicode.Is(unicode.Variation_Selector, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r)
}

// HiddenIn returns the first character of s that Hidden reports, if any.
func HiddenIn(s string) (rune, bool) {
	for _, r := range s {
		if Hidden(r) {
			return r, true
		}
	}
	return 0, false
}

// StringList returns the strings of the sequence in f, each trimmed of
// surrounding white space, duplicates dropped (the first kept, order kept).
// An item that is not a string, is blank after trimming, or holds a
// control or invisible character, is a problem.
// The result is never nil when ok.
func (d *Decoder) StringList(f Field) ([]string, bool) {
	items, ok := d.Seq(f)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(items))
	var seen map[string]struct{}
	if len(items) > 16 {
		seen = make(map[string]struct{}, len(items))
	}
	good := true
	for _, it := range items {
		s, ok := d.String(it)
		if !ok {
			good = false
			continue
		}
		s = strings.TrimSpace(s)
		if s == "" {
			d.Fieldf(it, "must not be blank")
			good = false
			continue
		}
		if r, ok := HiddenIn(s); ok {
			d.Fieldf(it, "%s holds a control or invisible character (%U): names are matched exactly, and a reader that drops it would read another name", quote(s), r)
			good = false
			continue
		}
		if seen != nil {
			if _, dup := seen[s]; dup {
				continue
			}
			seen[s] = struct{}{}
		} else if contains(out, s) {
			continue
		}
		out = append(out, s)
	}
	return out, good
}

// ParseInt parses the text of an integer written in plain decimal: an
// optional -, then digits with no leading zero (0 itself aside). Every
// other form, such as 010, 0x1f, 0o7, 0b11, 1_000 or +3, is a syntax
// error (strconv.ErrSyntax) rather than read as the YAML library would: a
// safety limit must mean the same to every reader of the file.
func ParseInt(s string) (int64, error) {
	if !isPlainDecimal(s) {
		return 0, &strconv.NumError{Func: "ParseInt", Num: s, Err: strconv.ErrSyntax}
	}
	return strconv.ParseInt(s, 10, 64)
}

// isPlainDecimal reports whether s is an integer in plain decimal: an
// optional -, then 0 or digits not starting with 0.
func isPlainDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" || (s[0] == '0' && len(s) > 1) {
		return false
	}
	return digitsOnly(s)
}

// isDecimalNumber reports whether s is a number in plain decimal: an
// optional -, a whole part that is 0 or does not start with 0, an optional
// fraction, and an optional exponent, with a digit before or after the
// point (5, 0.5, .5, 5., 1e-3, -2.5E+4). It is the YAML 1.2 core float
// form without a + sign or leading zeros.
func isDecimalNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	mant, exp := s, ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, exp = s[:i], s[i+1:]
		if exp != "" && (exp[0] == '+' || exp[0] == '-') {
			exp = exp[1:]
		}
		if exp == "" || !digitsOnly(exp) {
			return false
		}
	}
	whole, frac, dot := strings.Cut(mant, ".")
	if whole == "" && frac == "" {
		return false
	}
	if whole != "" && (!digitsOnly(whole) || (whole[0] == '0' && len(whole) > 1)) {
		return false
	}
	return !dot || digitsOnly(frac)
}

func digitsOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isIntegerText reports whether s looks like an integer in some YAML form
// other than plain decimal: a sign, digits and _ separators.
func isIntegerText(s string) bool {
	s = strings.TrimLeft(s, "+-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if (s[i] < '0' || s[i] > '9') && s[i] != '_' {
			return false
		}
	}
	return true
}

func isNonFinite(s string) bool {
	switch strings.ToLower(strings.TrimLeft(s, "+-")) {
	case ".nan", ".inf":
		return true
	}
	return false
}

// Describe names a node's kind and value for a message: string "yes",
// integer 3, number 1.5, boolean true, null, a list, a mapping.
func Describe(n *yaml.Node) string {
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case yaml.MappingNode:
		if t := n.ShortTag(); t != tagMap {
			return "a mapping tagged " + quote(t)
		}
		return "a mapping"
	case yaml.SequenceNode:
		if t := n.ShortTag(); t != tagSeq {
			return "a list tagged " + quote(t)
		}
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.DocumentNode:
		return "a document"
	}
	switch tag := n.ShortTag(); tag {
	case tagStr:
		return "string " + quote(n.Value)
	case tagInt:
		return "integer " + shorten(n.Value)
	case tagFloat:
		return "number " + shorten(n.Value)
	case tagBool:
		return "boolean " + shorten(n.Value)
	case tagNull:
		return "null"
	case tagTimestamp:
		return "timestamp " + shorten(n.Value)
	case tagBinary:
		return "binary data"
	default:
		return "a value tagged " + quote(tag)
	}
}

const maxShown = 40

// shorten cuts long text for a message.
func shorten(s string) string {
	if len(s) <= maxShown {
		return s
	}
	cut := maxShown
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// quote quotes text for a message, escaping control characters and cutting
// it short.
func quote(s string) string {
	return strconv.Quote(shorten(s))
}
