package store

import (
	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
)

// Collection describes one kind of document the registry keeps, for
// backends other than the file store: what its names look like, how a
// document is decoded and encoded, and the errors a backend returns for it.
// A backend keeps the canonical bytes Encode returns, so that every backend
// holds, and hands back, the same bytes for the same document.
type Collection[T any] struct {
	// Name names the collection: the file store's folder, a database's
	// table ("profiles").
	Name string
	// Noun names one document in messages ("profile").
	Noun string
	// Nested names have the form namespace/name.
	Nested bool
	// History keeps every version written as an object and records each
	// put and remove.
	History bool
	// Validate refuses a name that is not one of the collection's.
	Validate func(name string) error
	// Decode parses stored bytes; file names them in problems.
	Decode func(data []byte, file string) (T, error)
	// Encode returns the canonical bytes to store for v and the value
	// they decode to.
	Encode func(v T) (data []byte, stored T, err error)
	// NameOf returns a document's name.
	NameOf func(v T) string
	// NotFound and Conflict build the collection's errors for a name.
	NotFound func(name string) error
	Conflict func(name string) error
	// Codec, when not nil, is a compact binary form of decoded documents
	// that reads back far faster than the canonical YAML parses.
	Codec *Codec[T]
}

// Codec is a binary encoding of decoded documents, versioned: a reader
// uses an encoding only when it was written with the version it reads.
type Codec[T any] struct{ c *cacheCodec[T] }

// Version changes whenever the encoding or the document type changes.
func (c *Codec[T]) Version() uint32 { return c.c.version }

// Append appends the encoding of v to b.
func (c *Codec[T]) Append(b []byte, v T) []byte { return c.c.append(b, v) }

// Read decodes one document encoded by Append; an error means the bytes
// are damaged or were written by another version.
func (c *Codec[T]) Read(b []byte) (T, error) { return c.c.read(&cacheReader{b: b}) }

// The collections of the registry.
var (
	Profiles = &Collection[*profile.AutomationProfile]{
		Name: profileKind.dir, Noun: profileKind.noun, Nested: true, History: true,
		Validate: profileKind.validate, Decode: profileKind.decode, Encode: profileKind.encode,
		NameOf: profileKind.nameOf, NotFound: profileNotFound, Conflict: profileConflict,
		Codec: &Codec[*profile.AutomationProfile]{profileCodec},
	}
	Actions = &Collection[*action.Action]{
		Name: actionKind.dir, Noun: actionKind.noun, Nested: true,
		Validate: actionKind.validate, Decode: actionKind.decode, Encode: actionKind.encode,
		NameOf: actionKind.nameOf, NotFound: actionNotFound, Conflict: actionConflict,
	}
	Plans = &Collection[*plan.Plan]{
		Name: planKind.dir, Noun: planKind.noun,
		Validate: planKind.validate, Decode: planKind.decode, Encode: planKind.encode,
		NameOf: planKind.nameOf, NotFound: planNotFound, Conflict: planConflict,
	}
)

// CollectionNames are the names of the collections, in the order a
// registry is copied and summarised.
var CollectionNames = []string{Profiles.Name, Actions.Name, Plans.Name}

// Query selects the names of a collection before any document is read:
// a ProfileQuery or ActionQuery as every backend applies it.
type Query struct {
	// Namespace keeps only names in this namespace when not empty.
	Namespace string
	// Match keeps only names for which it returns true when not nil.
	Match func(name string) bool
	// Progress, when not nil, is told how many of the selected documents
	// a listing has read so far, out of how many; calls never overlap.
	Progress func(done, total int)
}

// Query returns q as a backend applies it.
func (q ProfileQuery) Query() Query {
	return Query(q)
}

// Query returns q as a backend applies it.
func (q ActionQuery) Query() Query { return Query{Namespace: q.Namespace, Match: q.Match} }

// Check returns an invalid-input error when the namespace is not a valid
// label.
func (q Query) Check() error { return ProfileQuery{Namespace: q.Namespace}.check() }

// Keep reports whether the query selects name.
func (q Query) Keep(name string) bool {
	return nameFilter{namespace: q.Namespace, match: q.Match}.keep(name)
}

// Interrupted reports a context that ended before a store could act.
func Interrupted(err error) error { return interrupted(err) }

// ObjectNotFound is the error for a digest no object is stored under.
func ObjectNotFound(digest string) error { return objectNotFound(digest) }

// ObjectTooLarge is the error for an object over MaxObjectSize bytes.
func ObjectTooLarge(n int) error { return objectTooLarge(n) }

// Problem is how a backend reports a stored document it cannot read.
func Problem(file string, err error) []errs.Problem { return problemsOf(file, err) }
