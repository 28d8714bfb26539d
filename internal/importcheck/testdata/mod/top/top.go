package top

import _ "example.com/mod/mid"
