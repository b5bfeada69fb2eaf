package review

// renderGroup is the renders that share one change, shown once.
type renderGroup struct {
	name    string // A, B, ...
	members []string
	diff    []Edit // the first member's diff
	changes []Edit
}

// groups sorts the changed renders by their change: a render whose changes are exactly the
// instruction text's adds nothing to read, and renders with the same changes (the three
// reasons usually) are shown once.
type groups struct {
	list    []renderGroup
	of      map[string]int // render name -> index in list
	sameAsI map[string]bool
}

func renderGroups(r *Review) *groups {
	g := &groups{of: map[string]int{}, sameAsI: map[string]bool{}}
	var ins []Edit
	if r.Instruction.Changed {
		ins = changes(r.Instruction.Diff)
	}
	for _, t := range r.Renders {
		if !t.Changed {
			continue
		}
		ch := changes(t.Diff)
		if ins != nil && sameEdits(ch, ins) {
			g.sameAsI[t.Name] = true
			continue
		}
		i := -1
		for j, x := range g.list {
			if sameEdits(x.changes, ch) {
				i = j
				break
			}
		}
		if i < 0 {
			i = len(g.list)
			g.list = append(g.list, renderGroup{name: groupName(i), diff: t.Diff, changes: ch})
		}
		g.list[i].members = append(g.list[i].members, t.Name)
		g.of[t.Name] = i
	}
	return g
}

// groupName returns A, B, ..., Z, AA, AB, ...
func groupName(i int) string {
	s := ""
	for i++; i > 0; i = (i - 1) / 26 {
		s = string(rune('A'+(i-1)%26)) + s
	}
	return s
}

// label says how a render changed.
func (g *groups) label(t TextChange) string {
	switch {
	case t.Note != "":
		return "not compared: " + t.Note
	case !t.Changed:
		return "unchanged"
	case g.sameAsI[t.Name]:
		return "the instruction text's change only"
	}
	return "change " + g.list[g.of[t.Name]].name
}
