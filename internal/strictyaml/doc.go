// Package strictyaml decodes YAML documents field by field so that every
// problem is reported with its file, line, column and field path, and so that
// unknown keys (a typo such as "precondition:") are errors rather than silently
// ignored. A Decoder collects all problems of a document instead of stopping at
// the first, which lets loaders report every error in a directory at once.
package strictyaml
