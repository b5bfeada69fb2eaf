// Package sdkparity holds one test, apart from package record so that only it compiles
// what naming an SDK's whole client costs: record's providers send what the SDKs' own
// clients, made by anthropic.NewClient and openai.NewClient with the same options, send.
package sdkparity
