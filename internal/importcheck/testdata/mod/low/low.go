package low

import "strings"

var _ = strings.ToUpper
