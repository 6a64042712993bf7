package lab_test

import (
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"io"
	"regexp"
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

// The CSV has a row a point and four columns a metric.
func TestWriteCSV_ARowAPoint(t *testing.T) {
	arithmetic(t)
	var b bytes.Buffer
	if err := mustRun(t, mustParse(t, tiny+"sweep lease 50ms 1s\nsweep heartbeat off 20ms\n"), lab.Options{}).WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(rows) != 5 || len(rows[0]) != 2+4*len(lab.Metrics)+2 || rows[0][0] != "lease" || rows[0][1] != "heartbeat" || rows[2][1] != "20" {
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
