// html-encoding-sniffer ships no types: the WHATWG encoding sniffing algorithm (BOM, transport
// label, <meta> prescan of the first 1024 bytes). Returns a WHATWG encoding name, e.g. "UTF-8".
declare module 'html-encoding-sniffer' {
  function sniffHTMLEncoding(
    bytes: Uint8Array,
    options?: { xml?: boolean; transportLayerEncodingLabel?: string; defaultEncoding?: string },
  ): string;
  export = sniffHTMLEncoding;
}
