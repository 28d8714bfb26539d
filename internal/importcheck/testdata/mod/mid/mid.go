package mid

import _ "example.com/mod/low"
