package safetypack

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/agentsctl/agents/internal/atomicfile"
	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/safefile"
	"github.com/agentsctl/agents/internal/safetypack/jcs"
)

// ReportSuffix ends the name of a pack's companion mastery report, which
// lies beside the pack as <pack_id>.mastery_report.json.
const ReportSuffix = ".mastery_report.json"

// ReportFileName returns the file name of the mastery report of a pack.
func ReportFileName(packID string) string { return packID + ReportSuffix }

// Report is a pack's mastery report: it seals the pack's content
// (PackSHA256) and itself (ReportSHA256, the sha256 of the report's RFC 8785
// encoding without that field). The pack carries ReportSHA256 as its
// mastery_report_sha256, so neither file can change unnoticed.
type Report struct {
	PackID       string `json:"pack_id"`
	PackSHA256   string `json:"pack_sha256"`
	ReportSHA256 string `json:"report_sha256"`
}

var reportKeys = []string{"pack_id", "pack_sha256", "report_sha256"}

// NewReport returns the sealed mastery report of p's current content.
func NewReport(p *Pack) *Report {
	r := &Report{PackID: p.PackID, PackSHA256: p.ContentSHA256()}
	r.ReportSHA256 = r.SelfSeal()
	return r
}

// SelfSeal computes the sha256 of the report's canonical encoding without
// report_sha256: the value ReportSHA256 must hold.
func (r *Report) SelfSeal() string {
	var w bytes.Buffer
	w.WriteString(`{"pack_id":`)
	jcs.WriteString(&w, r.PackID)
	w.WriteString(`,"pack_sha256":`)
	jcs.WriteString(&w, r.PackSHA256)
	w.WriteByte('}')
	return sha256Hex(w.Bytes())
}

// Encode returns the report as ratify writes it: indented JSON in field
// order with a trailing newline.
func (r *Report) Encode() []byte {
	b, err := canon.JSON(r)
	if err != nil {
		panic(fmt.Sprintf("safetypack: encoding a report: %v", err))
	}
	return b
}

// ParseReport reads a mastery report strictly: the three keys, each a
// string of the right form, nothing else.
func ParseReport(data []byte, file string) (*Report, error) {
	d := newDoc(data, file)
	r := d.parseReport()
	if len(d.problems) > 0 {
		msg := fmt.Sprintf("mastery report %s is malformed", file)
		if len(d.problems) == 1 {
			msg += ": " + problemText(d.problems[0])
		} else {
			msg += fmt.Sprintf(" (%d problems)", len(d.problems))
		}
		return nil, &errs.Error{Kind: errs.KindSafetyPack, Msg: msg, Problems: d.sorted()}
	}
	return r, nil
}

func (d *doc) parseReport() *Report {
	r := &Report{}
	got := map[string]bool{}
	ok := d.members(reportKeys, func(m member) {
		got[m.key] = true
		s, ok := d.str(m, m.key)
		if !ok {
			return
		}
		switch m.key {
		case "pack_id":
			r.PackID = s
			if why := CheckPackID(s); why != "" {
				d.problem(m.key, m.line, "%q %s", s, why)
			}
			return
		case "pack_sha256":
			r.PackSHA256 = s
		case "report_sha256":
			r.ReportSHA256 = s
		}
		if !isSHA256Hex(s) {
			d.problem(m.key, m.line, "must be 64 lower-case hex digits, got %q", s)
		}
	})
	if !ok {
		return nil
	}
	for _, k := range reportKeys {
		if !got[k] {
			d.problem(k, 0, "is required")
		}
	}
	return r
}

// Seal returns p sealed: a copy whose mastery_report_sha256 is the
// report's, and the report itself. Sealing a sealed pack gives the same
// pack and report.
func Seal(p *Pack) (*Pack, *Report) {
	r := NewReport(p)
	sealed := p.Clone()
	sealed.MasteryReportSHA256 = r.ReportSHA256
	return sealed, r
}

// SealStatus is the outcome of verifying a pack's seal.
type SealStatus struct {
	// ReportFile is where the report was looked for.
	ReportFile string
	// Report is the report when it was present and parsed.
	Report *Report
	// Problems says what failed; none means the seal verifies.
	Problems []errs.Problem
}

// Verified reports whether the seal verifies.
func (s SealStatus) Verified() bool { return len(s.Problems) == 0 }

// CheckSeal verifies p's seal against the report <pack_id>.mastery_report.json
// in dir of fsys. packFile and reportFile name the files in problems. Every
// check runs, so each failure is reported: the seal is present, the report
// is present and well formed and names this pack, the report's self-seal
// verifies, the pack carries the report's sha256, and the pack's content is
// what the report sealed.
func CheckSeal(p *Pack, packFile string, fsys fs.FS, dir, reportFile string) SealStatus {
	st := SealStatus{ReportFile: reportFile}
	add := func(file, path, format string, a ...any) {
		st.Problems = append(st.Problems, errs.Problem{File: file, Path: path, Message: fmt.Sprintf(format, a...)})
	}
	if p.MasteryReportSHA256 == "" {
		add(packFile, "mastery_report_sha256", "is empty: the pack has not been ratified")
	}
	data, err := readLimited(fsys, pathJoin(dir, ReportFileName(p.PackID)))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		add(reportFile, "", "mastery report is missing")
		return st
	case err != nil:
		add(reportFile, "", "cannot read the mastery report: %v", unwrapPathError(err))
		return st
	}
	r, err := ParseReport(data, reportFile)
	if err != nil {
		var e *errs.Error
		if errors.As(err, &e) && len(e.Problems) > 0 {
			for _, pr := range e.Problems {
				add(reportFile, "", "mastery report is malformed: %s", problemText(pr))
			}
		} else {
			add(reportFile, "", "mastery report is malformed: %v", err)
		}
		return st
	}
	st.Report = r
	if r.PackID != p.PackID {
		add(reportFile, "pack_id", "the mastery report is for pack %q, not %q", r.PackID, p.PackID)
	}
	if self := r.SelfSeal(); self != r.ReportSHA256 {
		add(reportFile, "report_sha256", "the mastery report has been edited: its content hashes to %s, not the report_sha256 %s it carries", self, r.ReportSHA256)
	}
	if p.MasteryReportSHA256 != "" && p.MasteryReportSHA256 != r.ReportSHA256 {
		add(packFile, "mastery_report_sha256", "%s does not match the mastery report's report_sha256 %s", p.MasteryReportSHA256, r.ReportSHA256)
	}
	if sum := p.ContentSHA256(); sum != r.PackSHA256 {
		add(packFile, "", "the pack's content has changed since it was ratified: it hashes to %s, the mastery report sealed %s", sum, r.PackSHA256)
	}
	return st
}

func pathJoin(dir, name string) string {
	if dir == "" || dir == "." {
		return name
	}
	return dir + "/" + name
}

// readLimited reads a regular file of at most MaxFileSize bytes from fsys.
func readLimited(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readOpened(f, name)
}

// readOpened reads the file f, opened as name, as readLimited does.
func readOpened(f fs.File, name string) ([]byte, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	if info.Size() > MaxFileSize {
		return nil, fmt.Errorf("file is %d bytes; at most %d are read", info.Size(), MaxFileSize)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("file is over %d bytes", MaxFileSize)
	}
	return data, nil
}

// RatifyResult says what ratifying a pack file did.
type RatifyResult struct {
	PackFile   string
	ReportFile string
	Pack       *Pack
	Report     *Report
	// PackWritten and ReportWritten are false when the file already held
	// exactly the bytes ratify would write.
	PackWritten   bool
	ReportWritten bool
	// Warnings are things the author should know that do not stop the
	// ratification (for example a file name the loader would not find).
	Warnings []string
}

// RatifyFile seals the pack at path: it writes the companion mastery report
// beside it and sets the pack's mastery_report_sha256, each file atomically
// and only when its bytes change, so ratifying twice changes nothing. The
// pack must satisfy every bound of the format. It never consults the pack in
// force, so a broken configured pack can be repaired with it.
func RatifyFile(path string) (*RatifyResult, error) {
	p, err := ReadPackFile(path)
	if err != nil {
		return nil, err
	}
	sealed, report := Seal(p)
	dir := filepath.Dir(path)
	res := &RatifyResult{
		PackFile:   path,
		ReportFile: filepath.Join(dir, ReportFileName(p.PackID)),
		Pack:       sealed,
		Report:     report,
	}
	if base := filepath.Base(path); base != p.PackID+".json" {
		// The report is named after the pack id: ratifying a copy under
		// another name would replace the report of the pack file that
		// bears the id, and break its seal without a word.
		if owner := filepath.Join(dir, p.PackID+".json"); safefile.Exists(owner) {
			return nil, errs.New(errs.KindSafetyPack, "%s has the pack id %s, which %s beside it bears too: ratifying it would replace that pack's mastery report and break its seal", path, p.PackID, owner).
				WithHint("give the copy a pack id of its own, or ratify %s itself", owner)
		}
		res.Warnings = append(res.Warnings, fmt.Sprintf("the file is named %s, but a configured pack is looked up as %s.json", base, p.PackID))
	}
	// Neither file is written when either is a link: both or none.
	for _, f := range []string{path, res.ReportFile} {
		if err := refuseLink(f); err != nil {
			return nil, err
		}
	}
	// The report first: if the pack write is lost, the old seal no longer
	// matches and verification fails closed until ratify runs again.
	if res.ReportWritten, err = writeIfChanged(res.ReportFile, report.Encode()); err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "cannot write the mastery report %s", res.ReportFile)
	}
	if res.PackWritten, err = writeIfChanged(path, sealed.Encode()); err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "cannot write the safety pack %s", path)
	}
	return res, nil
}

// refuseLink refuses a file ratify would write that is a symbolic link:
// replacing it would replace the link, and the file it names would keep
// its old content (see atomicfile.ErrLink).
func refuseLink(path string) error {
	if atomicfile.NotLink(path) == nil {
		return nil
	}
	target, _ := filepath.EvalSymlinks(path)
	return errs.New(errs.KindSafetyPack, "%s is a link to %s: ratify writes files, not links, and left both as they were", path, target).
		WithHint("ratify the pack where its files are, or replace the link with the file")
}

func writeIfChanged(path string, data []byte) (bool, error) {
	// Whatever is not a regular file there is replaced, never waited on.
	old, err := safefile.ReadFile(path, MaxFileSize)
	if err == nil && slices.Equal(old, data) {
		return false, nil
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return false, err
	}
	return true, nil
}

// ReadPackFile reads and parses the pack file at path, a file named on
// the command line: as every such file, it is read through the links that
// lead to it (a pack kept in a dotfiles folder), never waited on, and
// refused unless it is a regular file. A missing file, or a link to
// nothing, is not found (the caller named it); anything else wrong with
// it is a KindSafetyPack error.
func ReadPackFile(path string) (*Pack, error) {
	f, _, err := safefile.Open(path)
	if err != nil {
		return nil, fileError(path, err)
	}
	defer f.Close()
	data, err := readOpened(f, path)
	if err != nil {
		return nil, fileError(path, err)
	}
	return ParsePack(data, path)
}

func fileError(path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(path)
			return errs.NotFound("safety pack file %s is a link to %s, which does not exist", path, target).
				WithHint("name the pack's file itself, or make the link lead to it; a pack file is <pack_id>.json")
		}
		return errs.NotFound("safety pack file %s not found", path).
			WithHint("check the path; a pack file is <pack_id>.json")
	}
	if _, serr := os.Stat(path); errors.Is(serr, syscall.ENOTDIR) || errors.Is(serr, syscall.ENAMETOOLONG) {
		// No file can be there: a part of the path is a file, or the
		// name is too long for the file system.
		return errs.NotFound("safety pack file %s not found: %v", path, unwrapPathError(serr)).
			WithHint("check the path; a pack file is <pack_id>.json")
	}
	e := &errs.Error{Kind: errs.KindSafetyPack, Msg: fmt.Sprintf("cannot read safety pack %s", path), Err: unwrapPathError(err)}
	switch {
	case errors.Is(err, safefile.ErrNotRegular):
		if fi, serr := os.Stat(path); serr == nil && fi.IsDir() {
			return e.WithHint("name the pack's .json file in it, not the folder")
		}
		return e.WithHint("name the pack's regular file: a pipe or device is not read, as it could leave the command waiting")
	case errors.Is(err, syscall.ELOOP):
		return e.WithHint("%s is a link that leads back to itself, or through too many links: replace it with the file", path)
	}
	return e
}

// errLeadsOut is os.Root's refusal of a path that leaves the folder it is
// read in, in words a user can act on.
var errLeadsOut = errors.New("a link on the way leads out of its folder, and a safety pack's files are never read through one")

// unwrapPathError drops the *fs.PathError wrapper, whose path would repeat
// (and, under os.Root, shorten) the one the message already names, and
// words os.Root's refusal of a link out of the folder.
func unwrapPathError(err error) error {
	if safefile.EscapesRoot(err) {
		return errLeadsOut
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// VerifyFile reads the pack at path and verifies its seal against the
// mastery report beside it, whatever pack is in force. A path that is a
// link names the file it leads to, and the report is the one beside that
// file, where ratify wrote it. A missing pack file is not found; every
// other failure is a KindSafetyPack error saying what failed.
func VerifyFile(path string) (*Loaded, error) {
	named := path
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			// Read through the link, to say what is wrong with it.
			if _, rerr := ReadPackFile(path); rerr != nil {
				return nil, rerr
			}
			return nil, fileError(path, err)
		}
		path = real
	}
	// The pack and its report are read in the one folder opened here, so
	// a link changed meanwhile cannot pair one folder's pack with
	// another's report.
	dir := filepath.Dir(path)
	root, err := safefile.OpenRoot(dir)
	if err != nil {
		return nil, fileError(named, err)
	}
	defer root.Close()
	f, _, err := safefile.OpenIn(root, filepath.Base(path))
	if err != nil {
		return nil, fileError(named, err)
	}
	data, err := readOpened(f, named)
	f.Close()
	if err != nil {
		return nil, fileError(named, err)
	}
	p, err := ParsePack(data, named)
	if err != nil {
		return nil, err
	}
	st := CheckSeal(p, path, safefile.FS(root), ".", filepath.Join(dir, ReportFileName(p.PackID)))
	l := &Loaded{Pack: p, Source: path, ReportFile: st.ReportFile, Report: st.Report, Ratified: st.Verified()}
	if !st.Verified() {
		return l, sealError(p.PackID, path, st, true)
	}
	return l, nil
}

// sealError is the refusal of a pack whose seal does not verify.
func sealError(id, source string, st SealStatus, canRatify bool) *errs.Error {
	msg := fmt.Sprintf("safety pack %s (%s) failed verification", id, source)
	if len(st.Problems) == 1 {
		pr := st.Problems[0]
		if pr.File == source {
			pr.File = ""
		}
		msg += ": " + pr.String()
	} else {
		msg += fmt.Sprintf(" (%d problems)", len(st.Problems))
	}
	e := &errs.Error{Kind: errs.KindSafetyPack, Msg: msg, Problems: st.Problems}
	if canRatify {
		e.About(errs.AboutPackSeal, source)
	} else {
		e.Hint = "the embedded pack is damaged: reinstall agents"
	}
	return e
}
