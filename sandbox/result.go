package sandbox

import "time"

// CommandResult is what a finished command left.
type CommandResult struct {
	// Stdout and Stderr hold at most MaxOutputBytes each.
	Stdout string
	Stderr string
	// ExitCode is the command's exit status; TimeoutExitCode when TimedOut.
	ExitCode int
	// TimedOut is set when the command was killed at its timeout.
	TimedOut bool
	// Truncated is set when a stream printed more than MaxOutputBytes.
	Truncated bool
	// Duration is how long the command ran.
	Duration time.Duration
}

const (
	// DefaultCommandTimeout is the time limit of a command without one.
	DefaultCommandTimeout = 120 * time.Second
	// MaxOutputBytes is how much of each output stream a result keeps.
	MaxOutputBytes = 4 << 20
	// TimeoutExitCode is the exit code of a command killed at its timeout,
	// as coreutils' timeout(1) reports it.
	TimeoutExitCode = 124
	// NotFoundExitCode is the exit code of an unknown command, as in bash.
	NotFoundExitCode = 127
)

// NewResult builds the result of a finished command from its two streams. A
// timed-out command gets TimeoutExitCode whatever its own status was.
func NewResult(stdout, stderr *Output, exitCode int, timedOut bool, took time.Duration) CommandResult {
	if timedOut {
		exitCode = TimeoutExitCode
	}
	return CommandResult{
		Stdout:    stdout.String(),
		Stderr:    stderr.String(),
		ExitCode:  exitCode,
		TimedOut:  timedOut,
		Truncated: stdout.Truncated() || stderr.Truncated(),
		Duration:  took,
	}
}
