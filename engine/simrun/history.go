package simrun

import (
	"bytes"
	"encoding/json"

	"github.com/leaselab/leaselab/engine/history"
)

// HistoryJSON reads text, a concurrent history in the JSON lines format
// (package engine/history), checks it for linearizability against the
// contract's model (history.Check, within history.DefaultTimeout) and
// returns what the page's history view draws: history.Drawing as JSON.
// Text that history.Read refuses returns its *history.InputError (at its
// line and column) and checks nothing.
func HistoryJSON(text string) ([]byte, error) {
	h, err := history.Read(bytes.NewReader([]byte(text)))
	if err != nil {
		return nil, err
	}
	res, err := history.Check(h)
	if err != nil {
		return nil, err
	}
	return json.Marshal(res.Drawing())
}
