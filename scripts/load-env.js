// Reads `.env` from the repository root into process.env when the file exists (variables already set win, as
// Node's loader does), so every process started by the scripts sees the operator's settings.
const fs = require('node:fs');
const path = require('node:path');

function loadEnvFileIfPresent(file = path.resolve(__dirname, '..', '.env')) {
  if (fs.existsSync(file)) process.loadEnvFile(file);
}

module.exports = { loadEnvFileIfPresent };
