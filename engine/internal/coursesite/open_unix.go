//go:build unix

package coursesite

import "syscall"

// openNonblock is added to a read's open: a file that turned into a FIFO
// after its check opens at once instead of waiting for a writer.
const openNonblock = syscall.O_NONBLOCK
