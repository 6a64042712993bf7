package timeline_test

import (
	"context"
	"testing"

	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// A violates= expectation that names an invariant which held, on a step
// where another invariant broke, names the one that broke and the
// expectation that would have matched; with nothing else broken, or the
// announced invariant broken, there is nothing to suggest.
func TestRun_ViolatesMismatchNamesTheInvariantThatBrokeHere(t *testing.T) {
	const unfenced = "storage unfenced\nlease 1000ms\njob f\n" +
		"0ms A claim f -> ok\n100ms A pause 1500ms\n1000ms B claim f -> ok token=2\n" +
		"1100ms B write f value=fresh -> ok\n"
	const forgets = "service forgets\nlease 10s\njob j\n0ms A claim j -> ok\n1000ms ops reopen\n"
	const fenced = "lease 1000ms\njob f\n0ms A claim f -> ok\n"
	for _, tc := range []struct {
		name, lang, src, want string
	}{
		{"another invariant broke: it is named", "en",
			unfenced + "1600ms A write f value=stale -> ok violates=no-stale-write\n",
			"t.tl:8: expected violates=no-stale-write, got no-stale-write held (violated here: storage-fenced; did you mean violates=storage-fenced?)"},
		{"another invariant broke, in Korean", "ko",
			unfenced + "1600ms A write f value=stale -> ok violates=no-stale-write\n",
			"t.tl:8: 기대 violates=no-stale-write, 실제 no-stale-write 지켜짐 (여기서 깨진 불변식: storage-fenced. violates=storage-fenced를 뜻했나요?)"},
		{"one announced held, one broke, one unannounced broke: the match is what broke", "en",
			forgets + "1100ms B claim j -> ok violates=single-lease,no-stale-write\n",
			"t.tl:6: expected violates=single-lease,no-stale-write, got no-stale-write held (violated here: tokens-increase; did you mean violates=single-lease,tokens-increase?)"},
		{"one announced held, one broke, nothing else: no suggestion", "en",
			unfenced + "1600ms A write f value=stale -> ok violates=storage-fenced,single-lease\n",
			"t.tl:8: expected violates=storage-fenced,single-lease, got single-lease held"},
		{"nothing else broke: no suggestion", "en",
			fenced + "100ms A complete f -> ok violates=single-lease\n",
			"t.tl:4: expected violates=single-lease, got single-lease held"},
		{"the announced invariant broke: no mismatch", "en",
			unfenced + "1600ms A write f value=stale -> ok violates=storage-fenced\n",
			""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := memrun.RunSource(context.Background(), "t.tl", tc.src, timeline.Options{Lang: tc.lang})
			if err != nil {
				t.Fatal(err)
			}
			last := tr.Steps[len(tr.Steps)-1]
			got := ""
			if last.Expect != nil {
				got = last.Expect.Message
			}
			if got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}
