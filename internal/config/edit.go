package config

import (
	"bytes"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/agentsctl/agents/internal/errs"
)

// SetTrusted returns the configuration data with folder added to (trust
// true) or removed from trusted_projects, and whether that changed
// anything. A folder is added pinned to digest, the sha256 of the
// agents.yaml the person trusts ("" for none): an entry for it already
// there, plain or pinned to another digest, is replaced where it stands.
// Removing it removes every entry for it. The rest of the document,
// comments included, is kept. data must decode as a valid configuration,
// before and after: a broken file is never rewritten, and the edit never
// breaks one.
func SetTrusted(data []byte, file, folder, digest string, trust bool) ([]byte, bool, error) {
	g, err := DecodeGlobal(data, file)
	if err != nil {
		return nil, false, err
	}
	has := slices.Contains(g.TrustedProjects, folder)
	pin, pinned := g.TrustedDigests[folder]
	if trust && has && pinned && pin == digest || !trust && !has {
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
	var list *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != KeyTrustedProjects {
			continue
		}
		if root.Content[i+1].Kind != yaml.SequenceNode { // null: no list yet
			root.Content[i+1] = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		}
		list = root.Content[i+1]
	}
	if list == nil {
		list = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: KeyTrustedProjects}, list)
	}
	entry := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: KeyFolder},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: folder, Style: yaml.DoubleQuotedStyle},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: KeySHA256},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: digest, Style: yaml.DoubleQuotedStyle},
	}}
	replaced := false
	list.Content = slices.DeleteFunc(list.Content, func(n *yaml.Node) bool {
		if entryFolder(n) != folder {
			return false
		}
		if trust && !replaced {
			*n, replaced = *entry, true
			return false
		}
		return true
	})
	if trust && !replaced {
		list.Content = append(list.Content, entry)
	}
	if trust {
		// A pinned entry is two lines of block style, even in a list
		// written as [] (as an untrust leaves it).
		list.Style &^= yaml.FlowStyle
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, false, errs.Wrap(errs.KindInternal, err, "encoding %s", file)
	}
	_ = enc.Close()
	out := buf.Bytes()
	if _, err := DecodeGlobal(out, file); err != nil {
		return nil, false, errs.Wrap(errs.KindInternal, err, "the edited %s does not decode", file)
	}
	return out, true, nil
}

// entryFolder returns the folder an entry of trusted_projects names: the
// path itself, or a pinned entry's folder.
func entryFolder(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == KeyFolder {
				return n.Content[i+1].Value
			}
		}
	}
	return ""
}
