package wire

import (
	"bytes"
	"compress/flate"
)

func deflate(raw []byte) []byte {
	var buf bytes.Buffer
	zw, _ := flate.NewWriter(&buf, flate.BestSpeed)
	zw.Write(raw)
	zw.Close()
	return buf.Bytes()
}
