#!/usr/bin/env node
// Placeholder until the web app's end-to-end suite lands (issue 3): nothing to drive yet.
console.log("e2e: no web app yet");
