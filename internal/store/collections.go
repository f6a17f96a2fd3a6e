package store

import (
	"context"
	"errors"
	"reflect"
	"strconv"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
)

// Collection describes one kind of document the registry keeps: what its
// names look like, how a document is decoded, encoded and copied, and the
// errors a backend returns for it. Every backend implements Docs once,
// generically, over these descriptors, so that a new kind of document is a
// new Collection and an accessor on Store. A backend keeps the canonical
// bytes Encode returns, so that every backend holds, and hands back, the
// same bytes for the same document.
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
	// Vouches, in a collection with history, means the history vouches
	// for the document: a decision holds the document to its history's
	// last put, so content the history does not end with is never
	// recorded as a version of its own (a copy carries the history as it
	// is). Without it, a document found ahead of its history (a writer
	// killed before its history line) is what the next writer records.
	Vouches bool
	// Validate refuses a name that is not one of the collection's.
	Validate func(name string) error
	// Decode parses stored bytes; file names them in problems.
	Decode func(data []byte, file string) (T, error)
	// Encode returns the canonical bytes to store for v and the value
	// they decode to.
	Encode func(v T) (data []byte, stored T, err error)
	// NameOf returns a document's name.
	NameOf func(v T) string
	// NameKey is the key of the document that holds its name ("name";
	// "id" for a plan), for problems about it.
	NameKey string
	// Clone returns a deep copy of a document, so that a caller never
	// shares a value with the store.
	Clone func(v T) T
	// About is what the collection's errors are about, for the command
	// layer's hints.
	About errs.About
	// BareNames stand unquoted in messages (plan ids).
	BareNames bool
	// Codec, when not nil, is a compact binary form of decoded documents
	// that reads back far faster than the canonical YAML parses.
	Codec *Codec[T]
}

// Prepare checks a document about to be stored and encodes it: it
// returns its name, its canonical bytes and the value they decode to. No
// document, a name that is not one of the collection's and a document
// that cannot be encoded are invalid input.
func (c *Collection[T]) Prepare(v T) (name string, data []byte, stored T, err error) {
	if rv := reflect.ValueOf(any(v)); !rv.IsValid() || rv.Kind() == reflect.Pointer && rv.IsNil() {
		return "", nil, stored, errs.Invalid("no %s to store", c.Noun)
	}
	name = c.NameOf(v)
	if err := c.Validate(name); err != nil {
		return "", nil, stored, err
	}
	data, stored, err = c.Encode(v)
	return name, data, stored, err
}

// CheckName checks a request for the document name, as every backend does
// first: the context has not ended, and name is one of the collection's.
func (c *Collection[T]) CheckName(ctx context.Context, name string) error {
	if err := ctx.Err(); err != nil {
		return Interrupted(err)
	}
	return c.Validate(name)
}

// The collections of the registry.
var (
	Profiles = &Collection[*profile.AutomationProfile]{
		Name: "profiles", Noun: "profile", Nested: true, History: true,
		Validate: profile.ValidateCustomName,
		Decode: func(data []byte, file string) (*profile.AutomationProfile, error) {
			p, _, err := profile.DecodeProfile(data, file)
			return p, err
		},
		Encode:  profile.Encode,
		NameOf:  func(p *profile.AutomationProfile) string { return p.Name },
		NameKey: "name",
		Clone:   (*profile.AutomationProfile).Clone,
		About:   errs.AboutProfile,
		Codec:   profileCodec,
	}
	// Actions keep no history: nothing cites an action by digest.
	Actions = &Collection[*action.Action]{
		Name: "actions", Noun: "action", Nested: true,
		Validate: action.ValidateName,
		Decode:   action.DecodeStored,
		Encode:   action.Encode,
		NameOf:   func(a *action.Action) string { return a.Name },
		NameKey:  "name",
		Clone:    (*action.Action).Clone,
		About:    errs.AboutAction,
	}
	// Plans are named by id, which sorts as its creation time, so the name
	// order of a listing is creation order. They keep history: a decision
	// under a plan holds its record to the version the store last wrote.
	Plans = &Collection[*plan.Plan]{
		Name: "plans", Noun: "plan", BareNames: true, History: true, Vouches: true,
		Validate: plan.ValidateID,
		Decode:   plan.Decode,
		Encode:   plan.Encode,
		NameOf:   func(p *plan.Plan) string { return p.ID },
		NameKey:  "id",
		Clone:    (*plan.Plan).Clone,
		About:    errs.AboutPlan,
	}
)

// CollectionNames are the names of the collections, in the order a
// registry is copied and summarised.
var CollectionNames = []string{Profiles.Name, Actions.Name, Plans.Name}

// NotFound is the collection's error for a name it does not hold.
func (c *Collection[T]) NotFound(name string) error {
	return errs.NotFound("%s %s not found", c.Noun, c.Quote(name)).About(c.About, name)
}

// Conflict is the collection's error for a name it holds already.
func (c *Collection[T]) Conflict(name string) error {
	return errs.Conflict("%s %s already exists", c.Noun, c.Quote(name)).About(c.About, name)
}

// Quote writes name as messages show it: quoted, but a plan id bare.
func (c *Collection[T]) Quote(name string) string {
	if c.BareNames {
		return name
	}
	return strconv.Quote(name)
}

// Problem is how a backend reports a stored document it cannot read: the
// problems of a decoding error, each naming file, or the error itself.
func Problem(file string, err error) []errs.Problem {
	var e *errs.Error
	if errors.As(err, &e) && len(e.Problems) > 0 {
		out := make([]errs.Problem, len(e.Problems))
		copy(out, e.Problems)
		for i := range out {
			if out[i].File == "" {
				out[i].File = file
			}
		}
		return out
	}
	return []errs.Problem{{File: file, Message: err.Error()}}
}
