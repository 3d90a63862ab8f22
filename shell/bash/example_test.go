package bash_test

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/shell/bash"
)

func ExampleRun() {
	fsys := afero.NewMemMapFs()
	code, err := bash.Run(context.Background(), `
declare -A ages=([ann]=31 [bob]=25)
for name in ann bob; do
  printf '%-4s %3d\n' "$name" "${ages[$name]}"
done
exit 3`, bash.Options{FS: fsys, Stdout: os.Stdout})
	fmt.Println(code, err)
	// Output:
	// ann   31
	// bob   25
	// 3 <nil>
}
