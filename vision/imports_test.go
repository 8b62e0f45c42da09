package vision

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports enforces the layering of DESIGN.md: vision is a leaf that
// imports only the standard library, golang.org/x/image and the module's
// gorgonia-free internal packages (the shared SGEMM kernels), and above
// all never gorgonia. Test files are held to the same rule, except that the
// external example package may import vision itself.
func TestImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no Go files found")
	}
	fset := token.NewFileSet()
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(path, "/")
			switch {
			case !strings.Contains(first, "."): // standard library
			case path == "golang.org/x/image" || strings.HasPrefix(path, "golang.org/x/image/"):
			case strings.HasPrefix(path, "github.com/attend-go/attend/internal/"):
			case path == "github.com/attend-go/attend/vision" && strings.HasSuffix(name, "_test.go"):
			default:
				t.Errorf("%s imports %q; vision may import only the standard library, golang.org/x/image and internal/", name, path)
			}
		}
	}
}
