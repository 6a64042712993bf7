//go:build !unix

package coursesite

// openNonblock is nothing where there is no O_NONBLOCK to add.
const openNonblock = 0
