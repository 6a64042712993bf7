package grade

import "encoding/json"

// valueErrorNames are the names a program may give the lab's ValueError
// in an answer, besides Python's own: JavaScript's RangeError, which the
// page's exercise takes for it too (a JavaScript program over -cmd throws
// the same exception as in the page).
var valueErrorNames = map[string]bool{"RangeError": true}

// UnmarshalJSON reads one line of the protocol from the student's
// program; an answer's exception named as another language names the
// lab's ValueError (valueErrorNames) is read as ValueError. The first
// line's error (a program that cannot start) keeps its name.
func (a *answer) UnmarshalJSON(b []byte) error {
	type plain answer // without this method
	if err := json.Unmarshal(b, (*plain)(a)); err != nil {
		return err
	}
	var first struct {
		Ready *bool `json:"ready"`
	}
	if valueErrorNames[a.Error] && json.Unmarshal(b, &first) == nil && first.Ready == nil {
		a.Error = "ValueError"
	}
	return nil
}
