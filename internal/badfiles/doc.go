// Package badfiles feeds file loaders the inputs a hostile or broken disk
// produces — valid files cut short, binary garbage, a 64 MiB line, deeply
// nested documents, a YAML alias bomb, unreadable paths — and checks that
// each loader answers with an error naming the file: no panic, no hang,
// bounded memory, and nothing on disk changed.
//
// Every loader's table runs with
//
//	go test ./... -run BadFiles
package badfiles
