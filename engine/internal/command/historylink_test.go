package command

import (
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/grade"
	"github.com/leaselab/leaselab/engine/history"
	"github.com/leaselab/leaselab/engine/limits"
)

// -link prints, last, the link that draws the history: the file's bytes
// in history=, the simulator and language asked for (the grader's
// simulator unless told another); a file longer than a link carries is
// bad input.
func TestHistory_LinkCarriesTheFileByteForByte(t *testing.T) {
	text := lateComplete(t, history.Answer{Outcome: engine.OutcomeOK, Token: 2, LeaseUntil: 2000})
	for _, tc := range []struct {
		args []string
		want string // the link's start
	}{
		{[]string{"-link"}, grade.DefaultSimulator + "#history="},
		{[]string{"-link", "-simulator", "https://course.example/sim/", "-lang", "ko"}, "https://course.example/sim/#history="},
	} {
		code, out, errOut := main1(t, text, append(append([]string{"history"}, tc.args...), "-")...)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		link, ok := strings.CutPrefix(lines[len(lines)-1], "Drawn in the simulator: ")
		if code != ExitFail || errOut != "" || !ok || !strings.HasPrefix(link, tc.want) {
			t.Fatalf("%v: exit %d, stderr %q, last line %q; want exit 1 and a link at %s", tc.args, code, errOut, lines[len(lines)-1], tc.want)
		}
		param, lang, _ := strings.Cut(strings.TrimPrefix(link, tc.want), "&")
		back, err := history.ReadLinkParam(param)
		if err != nil || string(back) != text || (lang == "lang=ko") != strings.Contains(strings.Join(tc.args, " "), "ko") {
			t.Errorf("%v: the link holds %q (%v), %q; want the file and its language", tc.args, back, err, lang)
		}
	}
	long := text + strings.Repeat(" ", limits.DefaultGrading.LinkRunBytes)
	if code, out, errOut := main1(t, long, "history", "-link", "-"); code != ExitBadInput || !strings.Contains(errOut, "grade_link_run_bytes") || out != "" {
		t.Errorf("a file past the link's limit: exit %d, stdout %q, stderr %q; want exit 2 naming the limit", code, out, errOut)
	}
}
