// The console's calls to kgroupsd's HTTP API (docs/HTTP-API.md). A failed call throws an
// ApiError whose message is the API's own error message, ready to show to the user.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status; // HTTP status; 0 when kgroupsd did not answer
  }
}

async function call(method, path, body) {
  const options = { method, cache: 'no-store', headers: {} };
  if (body !== undefined) {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw new ApiError(0, `${method} ${path}: kgroupsd did not answer (${error.message})`);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = data?.error?.message ?? (text || response.statusText);
    throw new ApiError(response.status, `${method} ${path} failed (${response.status}): ${message}`);
  }
  return data;
}

export const getJson = (path) => call('GET', path);
export const postJson = (path, body) => call('POST', path, body);
export const deleteJson = (path) => call('DELETE', path);
