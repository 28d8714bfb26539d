// Package filelimit reads whole files with a size limit, so a loader handed
// a huge or endless file (a 64 MiB line, /dev/zero) fails with an error
// naming the file instead of exhausting memory.
package filelimit
