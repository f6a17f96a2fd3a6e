package render

// TablesView is a result that is naturally a set of tables, for the tests
// of the table layout. Plain prints
// every data row with its cells separated by tabs (no titles, no headers,
// a blank line between tables), which suits cut and awk.
type TablesView struct {
	// Doc is the canonical document for json and yaml.
	Doc any
	// List is the tables in order.
	List []Table
}

// Data implements View.
func (v TablesView) Data() any { return v.Doc }

// Plain implements View.
func (v TablesView) Plain(w *Writer) {
	for i, t := range v.List {
		if i > 0 {
			w.Raw("\n")
		}
		for _, row := range t.Rows {
			for j, c := range row {
				if j > 0 {
					w.Raw("\t")
				}
				w.Raw(Escape(c))
			}
			w.Raw("\n")
		}
	}
}

// Tables implements View.
func (v TablesView) Tables() []Table { return v.List }
