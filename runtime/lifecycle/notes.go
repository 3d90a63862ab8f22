package lifecycle

// The notes a fresh sandbox's first result carries, for the model.
const (
	// LostNote: the thread's sandbox ended and its files are gone.
	LostNote = "The sandbox restarted. The files from before are gone: this is a fresh, empty sandbox."
	// RestoredNote: the sandbox ended, and its provider brought the work
	// folder back.
	RestoredNote = "The sandbox restarted. The project files are back as they were; anything outside the work folder (installed tools, temp files, running processes) is gone."
)
