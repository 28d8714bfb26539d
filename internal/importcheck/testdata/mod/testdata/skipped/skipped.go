package skipped

import _ "example.com/mod/top"
