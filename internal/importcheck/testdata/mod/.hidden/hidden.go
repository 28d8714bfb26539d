package hidden

import _ "example.com/mod/top"
