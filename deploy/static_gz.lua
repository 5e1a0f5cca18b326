-- Serves Streamlit's frontend bundles gzip -9 compressed, from the copies deploy/precompress.py wrote.
--
-- HAProxy's own gzip (libslz in Debian's build) has one fast level: the Plotly bundle leaves it as 2.2 MB, not
-- the 1.4 MB of gzip -9. The bundles' names carry a content hash, so a name found here is the same file the
-- replicas would send; any other name (another Streamlit version, a file not compressed ahead) goes on to the
-- replicas and HAProxy's gzip as before. Everything is read into memory at start (about 7 MB): no disk I/O
-- while serving. The headers are Streamlit's own for these files (long immutable caching), plus gzip's.
--
-- Environment: STATIC_GZ_DIR, the folder with index.txt and static/.../*.gz; unset or missing: serves nothing.

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
  local count = 0
  for name in (index or ""):gmatch("[^\n]+") do
    local body = read(root .. "/" .. name .. ".gz")
    local kind = TYPES[name:match("%.(%w+)$")]
    if body ~= nil and kind ~= nil then
      files["/" .. name] = {body = body, type = kind}
      count = count + 1
    end
  end
  core.Info("static_gz: " .. count .. " precompressed bundles from " .. root)
end

-- "1" when this request's path has a precompressed copy.
core.register_fetches("static_gz_has", function(txn)
  return files[txn.sf:path()] ~= nil and "1" or "0"
end)

core.register_service("static_gz", "http", function(applet)
  local file = files[applet.path]
  applet:set_status(200)
  applet:add_header("content-type", file.type)
  applet:add_header("content-encoding", "gzip")
  applet:add_header("content-length", tostring(#file.body))
  applet:add_header("cache-control", "public, immutable, max-age=31536000")
  applet:add_header("vary", "Accept-Encoding")
  applet:start_response()
  if applet.method ~= "HEAD" then applet:send(file.body) end
end)
