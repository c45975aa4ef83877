// PNG from an exported SVG, drawn straight at the target size: sharp, not an upscaled screenshot.

export async function svgToPng(svg: string, width: number, height: number): Promise<Blob> {
  const img = new Image(width, height);
  // A data URL: Chromium taints (so cannot save) a canvas drawn from a blob-URL SVG with a foreignObject.
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('this browser gave no canvas to draw on');
  ctx.drawImage(img, 0, 0, width, height);
  return await new Promise<Blob>((resolve, reject) =>
    canvas.toBlob(
      (b) => (b ? resolve(b) : reject(new Error('the browser could not encode the PNG'))),
      'image/png',
    ),
  );
}
