package config

import (
	"bytes"
	"path/filepath"

	"go.yaml.in/yaml/v3"

	"github.com/agentsctl/agents/internal/errs"
)

// SetTrusted returns the configuration data with folder (a real path, no
// link in it) added to (trust true) or removed from trusted_projects, and
// whether that changed anything. Entries are matched by the folder they
// name, as written or with links resolved, so an entry that reaches the
// folder through a link is its entry too. A folder is added pinned to
// digest, the sha256 of the agents.yaml the person trusts ("" for none):
// the first entry for it already there, plain or pinned to another digest,
// is replaced where it stands, with its comments, and any other entry for
// it goes, so that one pin decides. Removing it removes every entry for
// it. The rest of the document, comments included, is kept. data must
// decode as a valid configuration, before and after, and the result is
// decoded again to check the edit did what it says: a broken file is never
// rewritten, and the edit never breaks one. nil data is a file not
// written yet; an empty one is refused, as every read of it is.
func SetTrusted(data []byte, file, folder, digest string, trust bool) ([]byte, bool, error) {
	g := &Global{File: file}
	if data != nil {
		var err error
		if g, err = DecodeGlobal(data, file); err != nil {
			return nil, false, err
		}
	}
	if trustSettled(g, folder, digest, trust) {
		return data, false, nil
	}
	var doc yaml.Node
	if !blank(data) {
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return nil, false, errs.Wrap(errs.KindInvalid, err, "%s: cannot read configuration", file)
		}
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, false, errs.Invalid("%s: the configuration is not a mapping", file)
	}
	var key, list *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != KeyTrustedProjects {
			continue
		}
		key = root.Content[i]
		if root.Content[i+1].Kind != yaml.SequenceNode { // null: no list yet
			root.Content[i+1] = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", LineComment: root.Content[i+1].LineComment}
		}
		list = root.Content[i+1]
	}
	if list == nil {
		key = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: KeyTrustedProjects}
		list = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		root.Content = append(root.Content, key, list)
	}
	entry := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: KeyFolder},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: folder, Style: yaml.DoubleQuotedStyle},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: KeySHA256},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: digest, Style: yaml.DoubleQuotedStyle},
	}}
	replaced := false
	kept := list.Content[:0:0]
	for _, n := range list.Content {
		if !sameFolder(entryFolder(n), folder) {
			kept = append(kept, n)
			continue
		}
		if trust && !replaced {
			// A comment on the entry's line stays on its first line.
			entry.HeadComment, entry.FootComment = n.HeadComment, n.FootComment
			entry.Content[1].LineComment = n.LineComment
			kept, replaced = append(kept, entry), true
		}
	}
	if trust && !replaced {
		kept = append(kept, entry)
	}
	list.Content = kept
	if trust && list.Style&yaml.FlowStyle != 0 {
		// A pinned entry is two lines of block style, even in a list
		// written as [] (as an untrust leaves it); a comment on the
		// list's line moves to its key's, where block style keeps it.
		list.Style &^= yaml.FlowStyle
		if key.LineComment == "" {
			key.LineComment, list.LineComment = list.LineComment, ""
		}
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, false, errs.Wrap(errs.KindInternal, err, "encoding %s", file)
	}
	_ = enc.Close()
	out := buf.Bytes()
	after, err := DecodeGlobal(out, file)
	if err != nil {
		return nil, false, errs.Wrap(errs.KindInternal, err, "the edited %s does not decode; it was left as it was", file).
			WithHint("edit trusted_projects in %s by hand", file)
	}
	if !trustSettled(after, folder, digest, trust) {
		return nil, false, errs.New(errs.KindInternal, "editing %s did not leave trusted_projects as asked; it was left as it was", file).
			WithHint("edit trusted_projects in %s by hand", file)
	}
	return out, true, nil
}

// trustSettled reports whether g already says what SetTrusted is asked
// for: folder trusted by one entry, pinned to digest; or not trusted by
// any entry.
func trustSettled(g *Global, folder, digest string, trust bool) bool {
	var found []string
	for _, t := range g.TrustedProjects {
		if sameFolder(t, folder) {
			found = append(found, t)
		}
	}
	if !trust {
		return len(found) == 0
	}
	pin, pinned := g.TrustedDigests[folder]
	return len(found) == 1 && found[0] == folder && pinned && pin == digest
}

// sameFolder reports whether an entry of trusted_projects names folder (a
// real path): as written, or once its links are resolved.
func sameFolder(entry, folder string) bool {
	if entry == "" {
		return false
	}
	if entry == folder {
		return true
	}
	real, err := filepath.EvalSymlinks(entry)
	return err == nil && real == folder
}

// entryFolder returns the folder an entry of trusted_projects names: the
// path itself, or a pinned entry's folder, through aliases.
func entryFolder(n *yaml.Node) string {
	n = unalias(n)
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if unalias(n.Content[i]).Value == KeyFolder {
				return unalias(n.Content[i+1]).Value
			}
		}
	}
	return ""
}

// unalias returns the node an alias stands for, or n.
func unalias(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}
