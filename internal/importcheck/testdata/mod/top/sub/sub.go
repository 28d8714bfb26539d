//go:build ignore

package sub

import _ "example.com/mod/low"
