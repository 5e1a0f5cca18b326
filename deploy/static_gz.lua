-- Serves Streamlit's frontend bundles compressed ahead of time (deploy/precompress.py): brotli to a browser whose
-- Accept-Encoding lists br, gzip -9 to one that lists only gzip.
--
-- HAProxy has no brotli, and its own gzip (libslz in Debian's build) has one fast level: the Plotly bundle leaves
-- it as 2.2 MB, against 1.4 MB at gzip -9 and 1.06 MB at brotli 11. Browsers list br only in a secure context
-- (HTTPS, or localhost); over plain http to any other host they ask for gzip, deflate. The bundles' names carry a
-- content hash, so a name found here is the same file the replicas would send; any other name (another Streamlit
-- version, a file not compressed ahead), or a client that accepts neither, goes on to the replicas and HAProxy's
-- gzip as before. Everything is read into memory at start (about 13 MB): no disk I/O while serving. The headers
-- are Streamlit's own for these files (long immutable caching), plus the encoding's.
--
-- Environment: STATIC_GZ_DIR, the folder with index.txt and static/.../*.gz (and *.br, when precompress.py had
-- the brotli package); unset or missing: serves nothing.

local files = {}
local root = os.getenv("STATIC_GZ_DIR")
local TYPES = {
  js = "application/javascript", css = "text/css; charset=utf-8", svg = "image/svg+xml",
  json = "application/json", map = "application/json", txt = "text/plain; charset=utf-8", ttf = "font/ttf",
}

local function read(path)
  local handle = io.open(path, "rb")
  if handle == nil then return nil end
  local body = handle:read("a")
  handle:close()
  return body
end

if root ~= nil and root ~= "" then
  local index = read(root .. "/index.txt")
  local count, with_br = 0, 0
  for name in (index or ""):gmatch("[^\n]+") do
    local gz = read(root .. "/" .. name .. ".gz")
    local br = read(root .. "/" .. name .. ".br")
    local kind = TYPES[name:match("%.(%w+)$")]
    if gz ~= nil and kind ~= nil then
      files["/" .. name] = {gzip = gz, br = br, type = kind}
      count = count + 1
      if br ~= nil then with_br = with_br + 1 end
    end
  end
  core.Info("static_gz: " .. count .. " precompressed bundles (" .. with_br .. " with brotli) from " .. root)
end

-- The codings an Accept-Encoding header list accepts: {br = true, gzip = true, ...}. "q=0" refuses a coding;
-- "*" stands for any coding not named. headers: HAProxy's table of header values, indexed from 0.
local function accepted(headers)
  local named, star = {}, false
  for _, value in pairs(headers or {}) do
    for item in value:gmatch("[^,]+") do
      local coding = item:match("^%s*([^;%s]+)")
      if coding ~= nil then
        local q = tonumber(item:match(";%s*[qQ]%s*=%s*([%d.]+)") or "1") or 1
        coding = coding:lower()
        if coding == "*" then star = q > 0 else named[coding] = q > 0 end
      end
    end
  end
  return function(coding)
    if named[coding] ~= nil then return named[coding] end
    return star
  end
end

-- The body and coding to send for this path and request headers, or nil (then the replicas answer).
local function pick(path, headers)
  local file = files[path]
  if file == nil then return nil end
  local accepts = accepted(headers["accept-encoding"])
  if file.br ~= nil and accepts("br") then return file, file.br, "br" end
  if accepts("gzip") then return file, file.gzip, "gzip" end
  return nil
end

-- "1" when this request's path has a precompressed copy in a coding the request accepts.
core.register_fetches("static_gz_has", function(txn)
  return pick(txn.sf:path(), txn.http:req_get_headers()) ~= nil and "1" or "0"
end)

core.register_service("static_gz", "http", function(applet)
  local file, body, coding = pick(applet.path, applet.headers)
  applet:set_status(200)
  applet:add_header("content-type", file.type)
  applet:add_header("content-encoding", coding)
  applet:add_header("content-length", tostring(#body))
  applet:add_header("cache-control", "public, immutable, max-age=31536000")
  applet:add_header("vary", "Accept-Encoding")
  applet:start_response()
  if applet.method ~= "HEAD" then applet:send(body) end
end)
