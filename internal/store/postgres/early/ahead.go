package early

// What the early connection sends behind its start-up message, so that
// the server works on it while agents is still starting: the store's own
// first statements where the command line says what they will be (a
// lookup of one profile), and otherwise a warm-up query that loads the
// catalog entries of the tables the command reads. Either way the server's
// answer follows the ReadyForQuery that ends the start; the store reads it
// as its own when the statements it sends are, byte for byte, the ones
// sent ahead, and drops it otherwise.

// VersionTable is the table the schema's migrations are recorded in: the
// one goose keeps by default, which the store's migrations use.
const VersionTable = "goose_db_version"

// registryTables are the tables of a registry's schema.
var registryTables = []string{"actions", VersionTable, "history", "objects", "plans", "profiles"}

// VersionQuery reads, in a session whose search_path puts schema first,
// the schema's version, the schema the search_path does put first (which
// a pooler between the store and the server may have set instead of the
// store), and the first of the registry's tables that schema does not
// hold as a relation with storage of its own (NULL when it holds every
// one): the store names its tables without their schema, so a table
// missing from the schema would be looked up in the next schema of the
// search_path, another registry's, and a view or a foreign table put in a
// table's place would answer for it. The store sends it first on every
// new connection.
//
// It asks through functions of the names alone (to_regclass,
// pg_relation_filenode), which a new server process answers from its
// caches: a query of pg_class costs that process a few milliseconds more
// to plan, on every connection. schema is a plain identifier
// (PlainIdent).
func VersionQuery(schema string) string {
	q := "SELECT max(version_id), current_schema(), CASE"
	for _, t := range registryTables {
		q += " WHEN pg_relation_filenode(to_regclass('\"" + schema + "\".\"" + t + "\"')) IS NULL THEN '" + t + "'"
	}
	return q + " END FROM " + VersionTable
}

// LookupQuery reads the row of one document of table (its one parameter
// is the name): its name, content and the digest recorded for it.
func LookupQuery(table string) string {
	return "SELECT name, content, digest FROM " + table + " WHERE name = $1"
}

// Formats and types of the lookup's statements, as the store sends them.
const (
	textFormat   = 0
	binaryFormat = 1
	textOID      = 25
)

// maxAheadName bounds the name a lookup is sent ahead for; a longer one
// gets the warm-up.
const maxAheadName = 256

// Lookup is the batch the store sends for its first lookup of name in
// table on a new connection to schema, in the extended protocol: the schema's
// version, then the row, each parsed, bound, described and executed, and
// one Sync.
func Lookup(schema, table, name string) []byte {
	var b []byte
	b = parse(b, VersionQuery(schema), nil)
	b = bind(b, nil, nil, []int16{binaryFormat})
	b = describePortal(b)
	b = execute(b)
	b = parse(b, LookupQuery(table), []uint32{textOID})
	b = bind(b, []int16{textFormat}, [][]byte{[]byte(name)}, []int16{binaryFormat})
	b = describePortal(b)
	b = execute(b)
	return message(b, 'S', nil)
}

// Warmup is a simple query that reads, in schema (the one the start-up
// names), the schema's version and no row of each of tables, so that the server
// loads the catalog entries of those tables before the store asks. It
// waits for no lock (a table another session holds is skipped, with an
// error nobody reads): its lock timeout of 1 ms lasts until the end of its
// own transaction.
func Warmup(schema string, tables []string) string {
	q := "SELECT set_config('lock_timeout', '1', true); " + VersionQuery(schema)
	for _, t := range tables {
		q += "; SELECT 1 FROM " + t + " WHERE name = ''"
	}
	return q
}

// EncodeQuery is a simple Query message.
func EncodeQuery(q string) []byte { return message(nil, 'Q', cstring(nil, q)) }

// message appends a message: its type, its length, its body.
func message(b []byte, typ byte, body []byte) []byte {
	b = append(b, typ, 0, 0, 0, 0)
	putBE32(b[len(b)-4:], uint32(4+len(body)))
	return append(b, body...)
}

func cstring(b []byte, s string) []byte { return append(append(b, s...), 0) }

func be16(b []byte, v int) []byte { return append(b, byte(v>>8), byte(v)) }

func be32append(b []byte, v uint32) []byte {
	return append(b, byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
}

// parse is Parse of the unnamed statement.
func parse(b []byte, query string, oids []uint32) []byte {
	body := cstring(cstring(nil, ""), query)
	body = be16(body, len(oids))
	for _, o := range oids {
		body = be32append(body, o)
	}
	return message(b, 'P', body)
}

// bind is Bind of the unnamed portal to the unnamed statement.
func bind(b []byte, paramFormats []int16, params [][]byte, resultFormats []int16) []byte {
	body := cstring(cstring(nil, ""), "")
	body = be16(body, len(paramFormats))
	for _, f := range paramFormats {
		body = be16(body, int(f))
	}
	body = be16(body, len(params))
	for _, p := range params {
		body = be32append(body, uint32(len(p)))
		body = append(body, p...)
	}
	body = be16(body, len(resultFormats))
	for _, f := range resultFormats {
		body = be16(body, int(f))
	}
	return message(b, 'B', body)
}

// describePortal is Describe of the unnamed portal.
func describePortal(b []byte) []byte { return message(b, 'D', cstring([]byte{'P'}, "")) }

// execute is Execute of the unnamed portal, every row.
func execute(b []byte) []byte { return message(b, 'E', be32append(cstring(nil, ""), 0)) }
