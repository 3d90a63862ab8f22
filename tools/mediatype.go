package tools

import (
	"path"
	"strings"
)

// mediaTypes maps file extensions to media types. It is built in, rather
// than mime.TypeByExtension, so the answer does not depend on the host's
// mime.types files.
var mediaTypes = map[string]string{
	// images
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".webp": "image/webp", ".svg": "image/svg+xml", ".bmp": "image/bmp", ".ico": "image/vnd.microsoft.icon",
	".tif": "image/tiff", ".tiff": "image/tiff", ".avif": "image/avif", ".heic": "image/heic",
	// documents and data
	".pdf": "application/pdf", ".json": "application/json", ".jsonl": "application/jsonl",
	".ndjson": "application/x-ndjson", ".geojson": "application/geo+json",
	".xml": "application/xml", ".yaml": "application/yaml", ".yml": "application/yaml",
	".toml": "application/toml", ".ipynb": "application/x-ipynb+json",
	".parquet": "application/vnd.apache.parquet", ".arrow": "application/vnd.apache.arrow.file",
	".feather": "application/vnd.apache.arrow.file", ".sqlite": "application/vnd.sqlite3",
	".db":   "application/vnd.sqlite3",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".xls":  "application/vnd.ms-excel",
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	".odt":  "application/vnd.oasis.opendocument.text", ".ods": "application/vnd.oasis.opendocument.spreadsheet",
	// text
	".txt": "text/plain", ".log": "text/plain", ".csv": "text/csv", ".tsv": "text/tab-separated-values",
	".md": "text/markdown", ".markdown": "text/markdown", ".html": "text/html", ".htm": "text/html",
	".css": "text/css", ".js": "text/javascript", ".mjs": "text/javascript", ".cjs": "text/javascript",
	".ts": "text/x-typescript", ".py": "text/x-python", ".go": "text/x-go", ".rs": "text/x-rust",
	".c": "text/x-c", ".h": "text/x-c", ".cpp": "text/x-c++", ".java": "text/x-java",
	".rb": "text/x-ruby", ".sh": "text/x-shellscript", ".sql": "application/sql",
	".tex": "application/x-tex", ".rtf": "application/rtf", ".ics": "text/calendar",
	// archives
	".zip": "application/zip", ".gz": "application/gzip", ".tgz": "application/gzip",
	".tar": "application/x-tar", ".bz2": "application/x-bzip2", ".xz": "application/x-xz",
	".7z": "application/x-7z-compressed", ".zst": "application/zstd",
	// audio and video
	".mp3": "audio/mpeg", ".wav": "audio/wav", ".ogg": "audio/ogg", ".flac": "audio/flac",
	".m4a": "audio/mp4", ".mp4": "video/mp4", ".webm": "video/webm", ".mov": "video/quicktime",
	".avi": "video/x-msvideo",
	// fonts and binaries
	".woff": "font/woff", ".woff2": "font/woff2", ".ttf": "font/ttf", ".otf": "font/otf",
	".wasm": "application/wasm",
}

// MediaType returns the media type of a file from its name's extension,
// "application/octet-stream" when the extension is unknown.
func MediaType(name string) string {
	if t, ok := mediaTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return "application/octet-stream"
}
