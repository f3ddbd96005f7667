"""Contact sheet of cut-outs: one row per photo — photo | mask | sticker on a checkerboard.

    python3 scripts/contact_sheet.py STICKERS OUT.png PHOTO [PHOTO ...]

Runs `STICKERS sticker PHOTO -o … --mask …` for each photo (a photo with no clear subject shows
the CLI's message instead) and lays the results out at 280 px per cell. Needs Pillow.
"""
import os, subprocess, sys, tempfile
from PIL import Image, ImageDraw, ImageOps

CELL = 280


def checkerboard(w, h, square=14):
    board = Image.new('RGB', (w, h), (255, 255, 255))
    d = ImageDraw.Draw(board)
    for y in range(0, h, square):
        for x in range(0, w, square):
            if (x // square + y // square) % 2:
                d.rectangle([x, y, x + square - 1, y + square - 1], fill=(204, 204, 204))
    return board


def fit(im):
    im = im.copy(); im.thumbnail((CELL - 8, CELL - 8), Image.LANCZOS); return im


def main():
    stickers, out, photos = sys.argv[1], sys.argv[2], sys.argv[3:]
    sheet = Image.new('RGB', (3 * CELL, len(photos) * CELL), (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    with tempfile.TemporaryDirectory() as tmp:
        for row, photo in enumerate(photos):
            png, mask = os.path.join(tmp, f'{row}.png'), os.path.join(tmp, f'{row}.mask.png')
            run = subprocess.run([stickers, 'sticker', photo, '-o', png, '--mask', mask], capture_output=True, text=True)
            y = row * CELL
            shown = fit(ImageOps.exif_transpose(Image.open(photo)).convert('RGB'))
            sheet.paste(shown, (4, y + 4))
            if run.returncode == 0:
                sheet.paste(fit(Image.open(mask).convert('RGB')), (CELL + 4, y + 4))
                sticker = fit(Image.open(png).convert('RGBA'))
                board = checkerboard(*sticker.size).convert('RGBA')
                board.alpha_composite(sticker)
                sheet.paste(board.convert('RGB'), (2 * CELL + 4, y + 4))
            else:
                message = (run.stderr.strip().splitlines() or ['failed'])[-1].replace('stickers: ', '')
                message = message.split(': ', 1)[-1]
                draw.multiline_text((CELL + 12, y + CELL // 2 - 20), f'exit {run.returncode}\n' + '\n'.join(
                    message[i:i + 40] for i in range(0, len(message), 40)), fill=(160, 0, 0))
            draw.text((8, y + CELL - 18), os.path.basename(photo), fill=(0, 0, 0))
    sheet.save(out)


if __name__ == '__main__':
    main()
