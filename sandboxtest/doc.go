// Package sandboxtest is the conformance suite every sandbox adapter passes.
//
// An adapter's test calls Run with a Harness:
//
//	func TestConformance(t *testing.T) {
//		sandboxtest.Run(t, sandboxtest.Harness{
//			NewProvider: func(t *testing.T) sandbox.Provider { return myadapter.New(opts) },
//			Unsupported: map[sandboxtest.Capability]string{
//				sandboxtest.CapURL: "myadapter has no network",
//			},
//		})
//	}
//
// Each case is a subtest with a fresh sandbox, a name and a one-line rule
// that is printed when the case fails. A case that needs a capability the
// harness declares unsupported is skipped with the harness's reason, never
// passed silently; where the contract says what an adapter must do instead
// (ErrUnsupported from GetURL, say), the case checks that.
package sandboxtest
