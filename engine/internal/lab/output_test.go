package lab_test

import (
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/lab"
)

// svgOf is the plot of src's result in lang, checked to be well-formed XML.
func svgOf(t *testing.T, src, lang string) string {
	t.Helper()
	var b bytes.Buffer
	if err := mustRun(t, mustParse(t, src), lab.Options{}).WriteSVG(&b, lang); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	d := xml.NewDecoder(&b)
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("not XML: %v\n%s", err, out)
		}
	}
	return out
}

const tiny = "# Tiny\ntitle ko \"작은\"\njobs 3\nworkers 2\nwork fixed 100ms\nruns 3\nplot dup_ms stall_ms\n"

// The plot is an image with a name and a description, drawn in the page's
// color alone: no inline style (a strict CSP), no color of its own.
func TestWriteSVG_IsAnAccessibleImageInThePagesColor(t *testing.T) {
	arithmetic(t)
	for _, lang := range []string{"en", "ko"} {
		svg := svgOf(t, tiny+"sweep lease 50ms 1s\n", lang)
		title := map[string]string{"en": "Tiny", "ko": "작은"}[lang]
		for _, want := range []string{`role="img"`, `aria-label="` + title + `"`, "<title>" + title + "</title>", "<desc>", `class="lab-band"`, `class="lab-line"`, `data-worst=`} {
			if !strings.Contains(svg, want) {
				t.Errorf("%s: no %q", lang, want)
			}
		}
		if strings.Contains(svg, "style=") || regexp.MustCompile(`#[0-9a-fA-F]{3,6}\b|rgb\(`).MatchString(svg) {
			t.Errorf("%s: an inline style or a color of its own", lang)
		}
		if n := strings.Count(svg, `class="lab-point"`); n != 4 {
			t.Errorf("%s: %d points, want 2 a panel", lang, n)
		}
	}
}

// Two swept parameters draw a heat map: a cell a point, a map a metric.
func TestWriteSVG_TwoSweepsDrawAHeatMap(t *testing.T) {
	arithmetic(t)
	svg := svgOf(t, tiny+"sweep lease 50ms 1s\nsweep heartbeat off 20ms 40ms\n", "en")
	if n := strings.Count(svg, `class="lab-cell"`); n != 12 {
		t.Errorf("%d cells, want 2×3 a map, two maps", n)
	}
	if strings.Contains(svg, `class="lab-line"`) {
		t.Error("a heat map drew a line")
	}
}

// The CSV has a row a point and seven columns a metric.
func TestWriteCSV_ARowAPoint(t *testing.T) {
	arithmetic(t)
	var b bytes.Buffer
	if err := mustRun(t, mustParse(t, tiny+"sweep lease 50ms 1s\nsweep heartbeat off 20ms\n"), lab.Options{}).WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(rows) != 5 || len(rows[0]) != 2+7*len(lab.Metrics)+2 || rows[0][0] != "lease" || rows[0][1] != "heartbeat" || rows[2][1] != "20" {
		t.Errorf("%v, %v", rows, err)
	}
}

// Every panel's heading ends inside the plot, in a line plot and a heat
// map, in English and Korean: at the plot's bold 12-pixel text, about 7
// pixels a character (twice that for Hangul), from the left margin (70)
// to the right edge (640). A label too long for it keeps its name, the
// words before its colon.
func TestWriteSVG_PanelHeadingsEndInsideThePlot(t *testing.T) {
	arithmetic(t)
	base := "# Tiny\njobs 2\nworkers 2\nwork fixed 100ms\nruns 2\nplot " + strings.Join(lab.MetricNames(), " ") + "\n"
	heading := regexp.MustCompile(`font-weight="bold">([^<]*)<`)
	for _, sweeps := range []string{"sweep lease 50ms 1s\n", "sweep heartbeat 20ms 40ms\nsweep margin off 0ms\n"} {
		for _, lang := range []string{"en", "ko"} {
			svg := svgOf(t, base+sweeps, lang)
			found := heading.FindAllStringSubmatch(svg, -1)
			if len(found) != len(lab.MetricNames()) {
				t.Fatalf("%s %q: %d headings, want one a measure", lang, sweeps, len(found))
			}
			for _, h := range found {
				text := strings.NewReplacer("&#39;", "'", "&amp;", "&").Replace(h[1])
				width := 0
				for _, r := range text {
					width += 7
					if r >= 0xac00 && r <= 0xd7a3 {
						width += 7
					}
				}
				if 70+width > 640 {
					t.Errorf("%s %q: heading %q is %d px wide from x=70, past the plot's 640", lang, sweeps, text, width)
				}
			}
			if lang == "en" && !strings.Contains(svg, ">lease overlaps (claims)") {
				t.Errorf("%q: the overlaps heading does not keep the label's name", sweeps)
			}
		}
	}
}

// A point's percentiles are nearest-rank over its runs: the p-th is the
// value of rank ceil(p×n/100) in ascending order, max the last; none when
// no run has the measure. Before, at and after the ranks' steps.
func TestPercentiles_AreNearestRank(t *testing.T) {
	upTo := func(n int) []float64 { // n, n-1, ..., 1: not in order
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(n - i)
		}
		return xs
	}
	for _, c := range []struct {
		xs   []float64
		want lab.Percentiles
	}{
		{nil, lab.Percentiles{}},
		{[]float64{7.25}, lab.Percentiles{P50: 7.25, P95: 7.25, Max: 7.25}},
		{[]float64{2, 1}, lab.Percentiles{P50: 1, P95: 2, Max: 2}},
		{upTo(19), lab.Percentiles{P50: 10, P95: 19, Max: 19}},
		{upTo(20), lab.Percentiles{P50: 10, P95: 19, Max: 20}},
		{upTo(21), lab.Percentiles{P50: 11, P95: 20, Max: 21}},
		{upTo(100), lab.Percentiles{P50: 50, P95: 95, Max: 100}},
		{[]float64{0.0004, 1.2346, 1.2346}, lab.Percentiles{P50: 1.235, P95: 1.235, Max: 1.235}},
	} {
		if got := lab.PercentilesOf(c.xs); got != c.want {
			t.Errorf("%d values %v: %+v, want %+v", len(c.xs), c.xs, got, c.want)
		}
	}
}

// Every output gives each measure's p50, p95 and max beside its mean: the
// JSON for every point and measure, in order p50 ≤ p95 ≤ max with the
// mean at most max; the CSV, the text table and the plot's titles the
// same numbers.
func TestOutputs_GivePercentilesBesideTheMean(t *testing.T) {
	arithmetic(t)
	res := mustRun(t, mustParse(t, pausy+"crash every exponential 2s restart fixed 300ms\nsweep lease 300ms 1s\n"), lab.Options{})
	for _, p := range res.Points {
		if len(p.Percentiles) != len(lab.Metrics) {
			t.Errorf("point %d: percentiles of %d measures, want %d", p.Index, len(p.Percentiles), len(lab.Metrics))
		}
		for _, m := range lab.MetricNames() {
			st, pc := p.Stats[m], p.Percentiles[m]
			if st.N > 0 && !(pc.P50 <= pc.P95 && pc.P95 <= pc.Max && st.Mean <= pc.Max) || st.N == 0 && pc != (lab.Percentiles{}) {
				t.Errorf("point %d, %s: %+v beside %+v", p.Index, m, pc, st)
			}
		}
	}
	dup := res.Points[0].Percentiles["dup_ms"]
	if dup.Max == 0 || dup.P50 == dup.Max {
		t.Fatalf("lease 300ms: dup_ms %+v; want runs that differ", dup)
	}
	var csvOut, table, svg bytes.Buffer
	if err := res.WriteCSV(&csvOut); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&csvOut).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, h := range []string{"dup_ms_p50", "dup_ms_p95", "dup_ms_max"} {
		want := map[string]float64{"dup_ms_p50": dup.P50, "dup_ms_p95": dup.P95, "dup_ms_max": dup.Max}[h]
		if i, ok := col[h]; !ok || rows[1][i] != strconv.FormatFloat(want, 'f', -1, 64) {
			t.Errorf("CSV column %s: %v, want %v", h, rows[1], want)
		}
	}
	three := func(pc lab.Percentiles) string {
		return strconv.FormatFloat(pc.P50, 'f', -1, 64) + "/" + strconv.FormatFloat(pc.P95, 'f', -1, 64) + "/" + strconv.FormatFloat(pc.Max, 'f', -1, 64)
	}
	if err := res.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "] "+three(dup)+" ") || !strings.Contains(table.String(), "p50/p95/max") {
		t.Errorf("the table lacks dup_ms's %s or its legend:\n%s", three(dup), table.String())
	}
	if err := res.WriteSVG(&svg, "en"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(svg.String(), "p50/p95/max "+three(dup)+"</title>") {
		t.Errorf("the plot's point titles lack dup_ms's p50/p95/max %s", three(dup))
	}
}

// The Korean plot speaks Korean: its description, panel titles, units and
// each point's title. The Latin words left are the lab's own syntax — the
// swept parameters, their values (off, ms, s), p50/p95 and an axis's k —
// and the token, which Korean names as the timeline text writes it; for a
// line and for a heat map.
func TestWriteSVG_KoreanPlotHasNoEnglishWords(t *testing.T) {
	arithmetic(t)
	const lab2 = "# Tiny\ntitle ko \"작은\"\njobs 3\nworkers 2\nwork fixed 100ms\nruns 2\nplot dup_ms stale_refused overlaps renews cancelled jobs_per_s\n"
	allowed := map[string]bool{"lease": true, "margin": true, "off": true, "ms": true, "s": true, "p": true, "k": true, "token": true}
	for _, sweeps := range []string{"sweep margin off 300ms\n", "sweep lease 50ms 1s\nsweep margin off 300ms\n"} {
		svg := svgOf(t, lab2+sweeps, "ko")
		d := xml.NewDecoder(strings.NewReader(svg))
		var text strings.Builder
		for {
			tok, err := d.Token()
			if err != nil {
				break
			}
			if c, ok := tok.(xml.CharData); ok {
				text.Write(c)
				text.WriteString("\n")
			}
		}
		var english []string
		for _, w := range regexp.MustCompile(`[A-Za-z]+`).FindAllString(text.String(), -1) {
			if !allowed[w] {
				english = append(english, w)
			}
		}
		if len(english) > 0 || !strings.Contains(text.String(), "가장 낮은") {
			t.Errorf("%q: English words %q in the Korean plot:\n%s", sweeps, english, text.String())
		}
	}
}

// A metric's label leaves its unit to the unit: the plot's titles write
// "label (unit)", so a label that ends in its unit would say it twice.
func TestMetrics_LabelsDoNotRepeatTheirUnit(t *testing.T) {
	for _, m := range lab.Metrics {
		for _, label := range []string{m.Label.En, m.Label.Ko} {
			if strings.HasSuffix(label, "("+m.Unit+")") {
				t.Errorf("%s: %q ends in its unit %q", m.Name, label, m.Unit)
			}
		}
	}
}
