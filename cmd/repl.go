package cmd

func runREPL(o *Options) error {
	return runScript(o, o.Streams.In)
}
