package lang_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/lang"
)

// Each particle pair takes its first form after a final consonant and its
// second after a vowel ((으)로 takes 로 after ㄹ too), a Latin word by how
// Korean reads it. The table is the page's too (web/.tools/test), so the
// engine's sentences and the page's pick the same particle.
func TestJosa_PicksTheParticleByTheFinalSound(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "web", ".tools", "test", "josa-vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ In, Want, Why string }
	if err := json.Unmarshal(b, &cases); err != nil || len(cases) == 0 {
		t.Fatalf("%d cases: %v", len(cases), err)
	}
	for _, c := range cases {
		if got := lang.Josa(c.In); got != c.Want {
			t.Errorf("Josa(%q) = %q, want %q (%s)", c.In, got, c.Want, c.Why)
		}
	}
}
