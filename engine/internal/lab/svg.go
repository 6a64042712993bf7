package lab

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"
)

// The plot is one SVG: for one swept parameter, a panel a plotted metric,
// its mean as a line through the points with the 95% interval as a band;
// for two, a heat map a plotted metric, the first parameter down, the
// second across, each cell's mean written in it. A lab without a sweep
// draws its one point as a one-point line.
//
// It is accessible and follows the page's colors: role="img" with
// aria-label, a <title> and a <desc> that says in words what it shows
// (where the mean is lowest and highest; for a lab of one point, its
// mean and interval); every point and cell has a <title> with its values
// (the mean, its 95% interval, the runs' p50/p95/max). Every color is
// currentColor, at an opacity, so a dark page draws it light; the classes lab-axis, lab-band,
// lab-line, lab-point and lab-cell let a page's stylesheet recolor it,
// and nothing is styled inline (a strict Content-Security-Policy keeps
// working). Each point and cell carries data-point, data-worst and
// data-typical (the indices of Result.Points and of Story's runs), for a
// page that opens the run behind it.

const (
	plotW   = 640
	panelH  = 200
	marginL = 70
	marginR = 40
	marginT = 28
	marginB = 44
)

// WriteSVG writes r's plot in lang (en or ko: the titles and labels).
func (r *Result) WriteSVG(w io.Writer, lang string) error {
	var b strings.Builder
	title := r.Title.in(lang)
	if title == "" {
		title = r.Name
	}
	panels := len(r.Plot)
	height := panels * (panelH + marginT + marginB)
	if len(r.Sweeps) == 2 {
		rows := len(r.Sweeps[0].Values)
		height = panels * (rows*28 + marginT + marginB)
	}
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="lab-plot" role="img" aria-label="%s" viewBox="0 0 %d %d" width="%d" height="%d" font-family="system-ui, sans-serif" font-size="12" fill="currentColor">`+"\n",
		esc(title), plotW, height, plotW, height)
	fmt.Fprintf(&b, "<title>%s</title>\n<desc>%s</desc>\n", esc(title), esc(r.describe(lang)))
	y := 0
	for _, name := range r.Plot {
		m := Metrics[metricIndex(name)]
		if len(r.Sweeps) == 2 {
			y += r.heatMap(&b, m, y, lang)
		} else {
			y += r.linePanel(&b, m, y, lang)
		}
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func esc(s string) string { return html.EscapeString(s) }

// describe is the plot in words, for <desc>.
func (r *Result) describe(lang string) string {
	var parts []string
	axes := make([]string, len(r.Sweeps))
	for i, s := range r.Sweeps {
		axes[i] = s.Param
	}
	for _, name := range r.Plot {
		m := Metrics[metricIndex(name)]
		if len(r.Points) == 1 {
			parts = append(parts, r.describeOne(m, lang))
			continue
		}
		lo, hi := 0, 0
		for i, p := range r.Points {
			if p.Stats[name].Mean < r.Points[lo].Stats[name].Mean {
				lo = i
			}
			if p.Stats[name].Mean > r.Points[hi].Stats[name].Mean {
				hi = i
			}
		}
		kind := "mean with its 95% interval"
		if lang == "ko" {
			kind = "평균과 95% 구간"
		}
		if len(r.Sweeps) == 2 {
			kind = "heat map of the mean"
			if lang == "ko" {
				kind = "평균의 열지도"
			}
		}
		format := "%s (%s), %s by %s: lowest %s at %s, highest %s at %s."
		if lang == "ko" {
			format = "%[1]s(%[2]s), %[4]s에 따른 %[3]s: 가장 낮은 값 %[5]s(%[6]s), 가장 높은 값 %[7]s(%[8]s)."
		}
		parts = append(parts, fmt.Sprintf(format,
			m.Label.in(lang), unitIn(m.Unit, lang), kind, strings.Join(axes, " × "),
			num(r.Points[lo].Stats[name].Mean), r.pointLabel(r.Points[lo]),
			num(r.Points[hi].Stats[name].Mean), r.pointLabel(r.Points[hi])))
	}
	return strings.Join(parts, " ")
}

// describeOne is m at a lab's one point (no sweep, or a sweep of one
// value), which has no lowest and highest: its mean and interval, or that
// no run has the measure.
func (r *Result) describeOne(m Metric, lang string) string {
	p := r.Points[0]
	where := r.pointLabel(p)
	if where == "" {
		where = map[bool]string{false: "it sweeps nothing", true: "훑는 매개변수 없음"}[lang == "ko"]
	}
	head := fmt.Sprintf("%s (%s), the lab's one point (%s)", m.Label.in(lang), unitIn(m.Unit, lang), where)
	if lang == "ko" {
		head = fmt.Sprintf("%s(%s), 실험의 한 점(%s)", m.Label.in(lang), unitIn(m.Unit, lang), where)
	}
	st := p.Stats[m.Name]
	switch {
	case st.N == 0 && lang == "ko":
		return head + ": 이 측정값을 낸 실행이 없습니다."
	case st.N == 0:
		return head + ": no run has this measure."
	case lang == "ko":
		return fmt.Sprintf("%s: 평균 %s, 95%% 구간 [%s, %s].", head, num(st.Mean), num(st.Lo), num(st.Hi))
	}
	return fmt.Sprintf("%s: mean %s, 95%% interval [%s, %s].", head, num(st.Mean), num(st.Lo), num(st.Hi))
}

// niceMax is a round upper bound at or above v for an axis.
func niceMax(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := 1.0 // the power of ten at or below v, by arithmetic alone (see ln)
	for p*10 <= v {
		p *= 10
	}
	for p > v {
		p /= 10
	}
	for _, f := range []float64{1, 2, 2.5, 5, 10} {
		if f*p >= v {
			return f * p
		}
	}
	return 10 * p
}

// short writes an axis number compactly (12k for 12000).
func short(v float64) string {
	switch {
	case v >= 1e6:
		return num(round3(v/1e6)) + "M"
	case v >= 1e4:
		return num(round3(v/1e3)) + "k"
	case v >= 100:
		return num(math.Round(v))
	}
	return num(round3(v))
}

func (r *Result) linePanel(b *strings.Builder, m Metric, top int, lang string) int {
	x0, x1 := float64(marginL), float64(plotW-marginR)
	y0, y1 := float64(top+marginT), float64(top+marginT+panelH)
	n := len(r.Points)
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = (x0 + x1) / 2
		if n > 1 {
			xs[i] = x0 + (x1-x0)*float64(i)/float64(n-1)
		}
	}
	ymax := 0.0
	for _, p := range r.Points {
		ymax = max(ymax, p.Stats[m.Name].Hi)
	}
	ymax = niceMax(ymax)
	yOf := func(v float64) float64 { return y1 - (y1-y0)*v/ymax }
	fmt.Fprintf(b, `<g class="lab-panel" data-metric="%s">`+"\n", m.Name)
	fmt.Fprintf(b, `<text x="%d" y="%d" font-weight="bold">%s</text>`+"\n", marginL, top+16, esc(panelTitle(m, lang, "")))
	// axes and grid
	for k := 0; k <= 4; k++ {
		v := ymax * float64(k) / 4
		y := yOf(v)
		fmt.Fprintf(b, `<line class="lab-axis" x1="%g" x2="%g" y1="%.1f" y2="%.1f" stroke="currentColor" stroke-opacity="%s"/>`+"\n", x0, x1, y, y, map[bool]string{true: "0.6", false: "0.15"}[k == 0])
		fmt.Fprintf(b, `<text x="%g" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", x0-6, y, short(v))
	}
	param := ""
	if len(r.Sweeps) == 1 {
		param = r.Sweeps[0].Param
	}
	for i, p := range r.Points {
		label := "·"
		if param != "" {
			label = paramValue(param, p.Values[0])
		}
		fmt.Fprintf(b, `<text x="%.1f" y="%g" text-anchor="middle">%s</text>`+"\n", xs[i], y1+16, esc(label))
	}
	if param != "" {
		fmt.Fprintf(b, `<text x="%g" y="%g" text-anchor="middle">%s</text>`+"\n", (x0+x1)/2, y1+34, esc(param))
	}
	// the band, then the line, then the points
	var band []string
	for i, p := range r.Points {
		band = append(band, fmt.Sprintf("%.1f,%.1f", xs[i], yOf(p.Stats[m.Name].Hi)))
	}
	for i := n - 1; i >= 0; i-- {
		band = append(band, fmt.Sprintf("%.1f,%.1f", xs[i], yOf(r.Points[i].Stats[m.Name].Lo)))
	}
	fmt.Fprintf(b, `<polygon class="lab-band" points="%s" fill="currentColor" fill-opacity="0.15" stroke="none"/>`+"\n", strings.Join(band, " "))
	var line []string
	for i, p := range r.Points {
		line = append(line, fmt.Sprintf("%.1f,%.1f", xs[i], yOf(p.Stats[m.Name].Mean)))
	}
	fmt.Fprintf(b, `<polyline class="lab-line" points="%s" fill="none" stroke="currentColor" stroke-width="2"/>`+"\n", strings.Join(line, " "))
	for i, p := range r.Points {
		st := p.Stats[m.Name]
		fmt.Fprintf(b, `<circle class="lab-point" cx="%.1f" cy="%.1f" r="4" data-point="%d" data-worst="%d" data-typical="%d"><title>%s</title></circle>`+"\n",
			xs[i], yOf(st.Mean), p.Index, p.Worst, p.Typical, r.pointTitle(p, m, lang))
	}
	b.WriteString("</g>\n")
	return panelH + marginT + marginB
}

func (r *Result) heatMap(b *strings.Builder, m Metric, top int, lang string) int {
	rows, cols := r.Sweeps[0], r.Sweeps[1]
	const cellH = 28
	x0 := float64(marginL + 30)
	cellW := (float64(plotW-marginR) - x0) / float64(len(cols.Values))
	y0 := float64(top + marginT)
	vmax := 0.0
	for _, p := range r.Points {
		vmax = max(vmax, p.Stats[m.Name].Mean)
	}
	fmt.Fprintf(b, `<g class="lab-panel" data-metric="%s">`+"\n", m.Name)
	fmt.Fprintf(b, `<text x="%d" y="%d" font-weight="bold">%s</text>`+"\n", marginL, top+16, esc(panelTitle(m, lang, fmt.Sprintf(": %s ↓, %s →", rows.Param, cols.Param))))
	for i, p := range r.Points {
		ri, ci := i/len(cols.Values), i%len(cols.Values)
		st := p.Stats[m.Name]
		op := 0.05
		if vmax > 0 {
			op = 0.05 + 0.8*st.Mean/vmax
		}
		x, y := x0+cellW*float64(ci), y0+float64(ri*cellH)
		fmt.Fprintf(b, `<rect class="lab-cell" x="%.1f" y="%.1f" width="%.1f" height="%d" fill="currentColor" fill-opacity="%.3f" data-point="%d" data-worst="%d" data-typical="%d"><title>%s</title></rect>`+"\n",
			x, y, cellW-1, cellH-1, op, p.Index, p.Worst, p.Typical, r.pointTitle(p, m, lang))
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" dominant-baseline="middle" stroke="Canvas" stroke-width="3" paint-order="stroke">%s</text>`+"\n",
			x+cellW/2, y+cellH/2, short(st.Mean))
	}
	for ri, v := range rows.Values {
		fmt.Fprintf(b, `<text x="%g" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", x0-6, y0+float64(ri*cellH)+cellH/2, esc(paramValue(rows.Param, v)))
	}
	yb := y0 + float64(len(rows.Values)*cellH)
	for ci, v := range cols.Values {
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", x0+cellW*float64(ci)+cellW/2, yb+16, esc(paramValue(cols.Param, v)))
	}
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", (x0+float64(plotW-marginR))/2, yb+34, esc(cols.Param))
	b.WriteString("</g>\n")
	return len(rows.Values)*cellH + marginT + marginB
}

// pointTitle is a point's or a cell's <title>, escaped: its swept values,
// then m's mean, unit and 95% interval, then its p50/p95/max.
func (r *Result) pointTitle(p PointResult, m Metric, lang string) string {
	st := p.Stats[m.Name]
	format := "%s: %s %s [%s, %s]; p50/p95/max %s"
	if lang == "ko" {
		format = "%s: %s %s [%s, %s]; p50/p95/최대 %s"
	}
	return esc(fmt.Sprintf(format, r.pointLabel(p), num(st.Mean), unitIn(m.Unit, lang), num(st.Lo), num(st.Hi), p.Percentiles[m.Name].slashed()))
}

// unitsKo are the units in Korean that are not already symbols (ms): a
// count takes its counter.
var unitsKo = map[string]string{"jobs": "개", "writes": "건", "claims": "건", "deliveries": "건", "attempts": "회", "calls": "회", "jobs/s": "개/초"}

// unitIn is unit in lang: Korean's counter, or the unit as the JSON and
// the English write it.
func unitIn(unit, lang string) string {
	if k, ok := unitsKo[unit]; ok && lang == "ko" {
		return k
	}
	return unit
}

// titleWidth is how many 7-pixel cells of the plot's bold 12-pixel text
// a panel's title may take: from marginL to the plot's right edge.
const titleWidth = (plotW - marginL) / 7

// panelTitle is a panel's heading: the measure's label, its unit, then
// rest. A heading wider than titleWidth keeps only the label's name, the
// words before its colon ("lease overlaps"), or else before its
// parenthesis, so that it ends inside the plot; the whole label stays in
// the plot's <desc> and each cell's <title>.
func panelTitle(m Metric, lang, rest string) string {
	label := m.Label.in(lang)
	var title string
	for _, cut := range []string{"", ":", " ("} {
		if cut != "" {
			label, _, _ = strings.Cut(label, cut)
		}
		if title = fmt.Sprintf("%s (%s)%s", label, unitIn(m.Unit, lang), rest); cells(title) <= titleWidth {
			break
		}
	}
	return title
}

// cells is s's width in titleWidth's cells: a wide (Hangul or CJK)
// character takes two.
func cells(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x1100 && (r <= 0x115f || r >= 0x2e80) {
			n++
		}
	}
	return n
}
