package server

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"

	"github.com/attend-go/attend/vision"
)

// web holds the page: plain HTML, CSS and JavaScript, no build step.
//
//go:embed web
var web embed.FS

// staticFiles serves the page's assets, files only: a folder (the
// prefix itself included) is not listed but answered 404.
func staticFiles() http.Handler {
	sub, err := fs.Sub(web, "web")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	files := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		if st, err := fs.Stat(sub, name); name == "" || err != nil || st.IsDir() {
			writeError(w, &APIError{Status: http.StatusNotFound, Type: typeNotFound, Message: "no such file"})
			return
		}
		files.ServeHTTP(w, r)
	})
}

// page serves the tool's page at "/".
func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	data, err := web.ReadFile("web/" + s.tool + ".html")
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(data)
}

// colormapNames are the colormaps the page may choose, those of
// "caption overlay -colormap".
var colormapNames = []string{"inferno", "viridis", "turbo", "mask"}

// serveColormaps answers the tables of package vision's colormaps, so
// the page colors attention exactly as the PNG figures do: per name,
// 256 entries of [r, g, b] flattened to 768 bytes.
func serveColormaps(w http.ResponseWriter, _ *http.Request) {
	tables := map[string][]int{} // ints, not []uint8, which marshals as base64
	for _, name := range colormapNames {
		c, ok := vision.ColormapByName(name)
		if !ok {
			continue
		}
		lut := make([]int, 0, 256*3)
		for i := range 256 {
			rgb := c.At(float32(i) / 255)
			lut = append(lut, int(rgb.R), int(rgb.G), int(rgb.B))
		}
		tables[name] = lut
	}
	w.Header().Set("Cache-Control", "max-age=3600")
	writeJSON(w, http.StatusOK, tables)
}
