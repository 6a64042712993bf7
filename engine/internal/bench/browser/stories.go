package main

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"
)

// storyOf is the story the benchmark's own timelines tell, for job j at
// time at: A claims it, its lease ends, B claims it again, A comes back
// and completes with its old token (refused: superseded), B completes.
func storyOf(b *strings.Builder, j string, at int) {
	fmt.Fprintf(b, "%dms A claim %s -> ok token=1\n", at, j)
	fmt.Fprintf(b, "%dms B claim %s -> ok token=2\n", at+1000, j)
	fmt.Fprintf(b, "%dms A complete %s token=1 -> refused superseded\n", at+1001, j)
	fmt.Fprintf(b, "%dms B complete %s -> ok status=done\n", at+1002, j)
}

// storyTimeline is a timeline of the story for jobs jobs, four steps each,
// one story after another. No library timeline has this text, so no trace
// computed ahead of time stands for it: the engine's own run draws it.
func storyTimeline(title string, jobs int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\nlease 1000ms\n", title)
	for i := range jobs {
		fmt.Fprintf(&b, "job j%d\n", i)
	}
	for i := range jobs {
		storyOf(&b, fmt.Sprintf("j%d", i), i*2000)
	}
	return b.String()
}

// longTimelineSteps is the length of the timeline the main thread is
// watched through: the most steps a timeline may have (limits.Default).
const longTimelineSteps = 2000

// simulatorLink is the simulator's address opening text as a shared
// timeline (app.js readHash: src is the text, base64url).
func simulatorLink(name, text string) string {
	p := url.Values{"name": {name}, "src": {base64.RawURLEncoding.EncodeToString([]byte(text))}}
	return "/#" + p.Encode()
}
