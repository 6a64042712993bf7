// Package coursesite is leaselab on a course author's site: the bundle's
// version, the Markdown fences and <lease-timeline> elements of a built
// site's HTML, and prerendering — running each of them natively, ahead of
// time, so the page draws its trace before (and without) the engine.
//
// The fences are the browser's web/fences.js, written again in Go: the same
// markers, the same first-line directive (#! key=value ...), the same
// dedenting, and the same key for a run's trace (Key: SHA-256 of a
// canonical form). Test vectors shared with the JavaScript's unit tests
// (web/.tools/test/prerender-vectors.json) hold both to the same answers.
//
// The bundle's version is FormatVersion.Release (Version): the trace
// format the player reads (engine/timeline), then the bundle's release
// number, raised whenever a release changes what the bundle ships. make
// dist writes the bundle into a folder named leaselab-VERSION, so a course
// can pin one and a new release lands beside it instead of over it.
package coursesite

import (
	"strconv"

	"github.com/leaselab/leaselab/engine/timeline"
)

// Release is the bundle's release number within its trace format: raise it
// with every release that changes a file of the bundle.
const Release = 1

// Version is the bundle's version: the trace format, a dot, the release.
func Version() string {
	return strconv.Itoa(timeline.FormatVersion) + "." + strconv.Itoa(Release)
}

// BundleDir is the name of the bundle's folder: leaselab-VERSION.
func BundleDir() string { return "leaselab-" + Version() }
