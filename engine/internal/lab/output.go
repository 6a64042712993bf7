package lab

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Encode writes r as JSON (see Result), indented, with a final newline:
// the same bytes for the same lab and seed on every platform.
func (r *Result) Encode(w io.Writer) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// title is r's title in lang, English when it has none in lang.
func (t Title) in(lang string) string {
	if lang == "ko" && t.Ko != "" {
		return t.Ko
	}
	return t.En
}

// pointLabel is a point's swept values, "lease=2000ms heartbeat=off".
func (r *Result) pointLabel(p PointResult) string {
	parts := make([]string, len(r.Sweeps))
	for i, s := range r.Sweeps {
		parts[i] = s.Param + "=" + paramValue(s.Param, p.Values[i])
	}
	return strings.Join(parts, " ")
}

// slashed is "p50/p95/max", as the table and the plot's titles write it.
func (pc Percentiles) slashed() string { return num(pc.P50) + "/" + num(pc.P95) + "/" + num(pc.Max) }

// num writes a measure with at most 3 decimals, no trailing zeros.
func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// WriteTable writes r as a text table: a row a point, its index (as the
// JSON's and Story's), its swept values, then each metric's mean, 95%
// interval and p50/p95/max ("12 [9, 15] 11/20/31"), then the worst and
// typical runs; the metrics' meanings under it.
func (r *Result) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{"point"}
	for _, s := range r.Sweeps {
		head = append(head, s.Param)
	}
	for _, m := range r.Metrics {
		head = append(head, m.Name)
	}
	head = append(head, "worst", "typical")
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, p := range r.Points {
		row := []string{strconv.Itoa(p.Index)}
		for i, s := range r.Sweeps {
			row = append(row, paramValue(s.Param, p.Values[i]))
		}
		for _, m := range r.Metrics {
			st := p.Stats[m.Name]
			if st.N == 0 {
				row = append(row, "-")
				continue
			}
			row = append(row, fmt.Sprintf("%s [%s, %s] %s", num(st.Mean), num(st.Lo), num(st.Hi), p.Percentiles[m.Name].slashed()))
		}
		row = append(row, strconv.Itoa(p.Worst), strconv.Itoa(p.Typical))
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	title := r.Title.En
	if title == "" {
		title = r.Name
	}
	fmt.Fprintf(w, "\n%s: %d runs a point of %d jobs, %d workers, seed %d; each cell is the mean [95%% interval] over the runs, then the runs' p50/p95/max (nearest rank).\n",
		title, r.Runs, r.Jobs, r.Workers, r.Seed)
	for _, m := range r.Metrics {
		if _, err := fmt.Fprintf(w, "  %-15s %s (%s)\n", m.Name, m.Label.En, m.Unit); err != nil {
			return err
		}
	}
	return nil
}

// WriteCSV writes r as CSV: a header row, then a row a point: the swept
// values (ms, or attempts; off as the JSON writes it, see Result), then each metric's mean, lo, hi, n, p50, p95
// and max (columns METRIC_mean, METRIC_lo, METRIC_hi, METRIC_n,
// METRIC_p50, METRIC_p95, METRIC_max), then worst and typical (run
// indices, -1 none).
func (r *Result) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	var head []string
	for _, s := range r.Sweeps {
		head = append(head, s.Param)
	}
	for _, m := range r.Metrics {
		head = append(head, m.Name+"_mean", m.Name+"_lo", m.Name+"_hi", m.Name+"_n", m.Name+"_p50", m.Name+"_p95", m.Name+"_max")
	}
	head = append(head, "worst", "typical")
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, p := range r.Points {
		var row []string
		for _, v := range p.Values {
			row = append(row, strconv.FormatInt(v, 10))
		}
		for _, m := range r.Metrics {
			st := p.Stats[m.Name]
			pc := p.Percentiles[m.Name]
			row = append(row, num(st.Mean), num(st.Lo), num(st.Hi), strconv.Itoa(st.N), num(pc.P50), num(pc.P95), num(pc.Max))
		}
		row = append(row, strconv.Itoa(p.Worst), strconv.Itoa(p.Typical))
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
