"""Runs inside Blender: builds a scene described by :mod:`testkit.render.scene`, renders it
with Cycles on the CPU and says, by ray casting, which sampled points of each piece the
camera sees.

    blender -b --factory-startup --python blender_side.py -- scene.json OUT_FOLDER THREADS

Writes into OUT_FOLDER: ``render.hdr`` (the picture, linear light, the pinhole camera's
overscanned frame), ``glossy.hdr`` (the light reflected off glossy surfaces straight from
a lamp or the room: where the glare is) and ``rays.json`` (per piece, one character per
sampled point: ``1`` seen, ``0`` covered) with the render's seconds.

Only the standard library and Blender's own modules are used here (Blender brings its
own Python).
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from typing import Any

import bpy  # type: ignore[import-not-found]
from mathutils import Matrix, Vector  # type: ignore[import-not-found]

MM = 0.001


def to_b(p: list[float]) -> tuple[float, float, float]:
    """Table mm (x east, y south, z up) -> Blender metres (x east, y north, z up)."""
    return (p[0] * MM, -p[1] * MM, p[2] * MM)


def vec_b(v: list[float]) -> Vector:
    return Vector((v[0], -v[1], v[2]))


# --- materials ---------------------------------------------------------------------------


def _principled(name: str) -> tuple[Any, Any, Any]:
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    nodes, links = mat.node_tree.nodes, mat.node_tree.links
    bsdf = nodes["Principled BSDF"]
    return mat, bsdf, (nodes, links)


def printed(texture: str, paper: dict[str, float], cut: bool) -> Any:
    """The kit's print on semi-gloss card stock."""
    mat, bsdf, (nodes, links) = _principled(f"print-{os.path.basename(texture)}")
    img = bpy.data.images.load(texture, check_existing=True)
    tex = nodes.new("ShaderNodeTexImage")
    tex.image = img
    tex.interpolation = "Cubic"
    tex.extension = "CLIP"
    links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    if cut:
        links.new(tex.outputs["Alpha"], bsdf.inputs["Alpha"])
    bsdf.inputs["Roughness"].default_value = paper["roughness"]
    bsdf.inputs["Specular"].default_value = paper["specular"]
    bsdf.inputs["Clearcoat"].default_value = paper["clearcoat"]
    bsdf.inputs["Clearcoat Roughness"].default_value = paper["clearcoat_roughness"]
    return mat


def plain(name: str, colour: list[float], roughness: float, clearcoat: float = 0.0,
          specular: float = 0.5) -> Any:
    mat, bsdf, _ = _principled(name)
    bsdf.inputs["Base Color"].default_value = (*colour[:3], 1.0)
    bsdf.inputs["Roughness"].default_value = roughness
    bsdf.inputs["Clearcoat"].default_value = clearcoat
    bsdf.inputs["Specular"].default_value = specular
    return mat


def table_material(t: dict[str, Any]) -> Any:
    """Wood (bands of grain), cloth (a fine weave) or a checked cloth, procedurally."""
    mat, bsdf, (nodes, links) = _principled("table")
    coord = nodes.new("ShaderNodeTexCoord")
    mapping = nodes.new("ShaderNodeMapping")
    links.new(coord.outputs["Object"], mapping.inputs["Vector"])
    k = 1.0 / (t["scale"] * MM)
    mapping.inputs["Scale"].default_value = (k, k * (0.12 if t["kind"] == "wood" else 1.0), k)
    mapping.inputs["Location"].default_value = (t["seed"] * 0.37, t["seed"] * 0.11, 0.0)
    ramp = nodes.new("ShaderNodeValToRGB")
    c1, c2 = t["colour"], t["colour2"]
    if t["kind"] == "wood":
        wave = nodes.new("ShaderNodeTexWave")
        wave.wave_type = "BANDS"
        wave.inputs["Distortion"].default_value = 7.0
        wave.inputs["Detail"].default_value = 3.0
        wave.inputs["Detail Scale"].default_value = 1.6
        links.new(mapping.outputs["Vector"], wave.inputs["Vector"])
        links.new(wave.outputs["Fac"], ramp.inputs["Fac"])
        ramp.color_ramp.elements[0].color = (*[v * 0.55 for v in c1], 1.0)
        ramp.color_ramp.elements[1].color = (*c1, 1.0)
    elif t["kind"] == "check":
        check = nodes.new("ShaderNodeTexChecker")
        check.inputs["Color1"].default_value = (*c1, 1.0)
        check.inputs["Color2"].default_value = (*c2, 1.0)
        check.inputs["Scale"].default_value = 1.0
        links.new(mapping.outputs["Vector"], check.inputs["Vector"])
        noise = nodes.new("ShaderNodeTexNoise")
        noise.inputs["Scale"].default_value = 3000.0
        mix = nodes.new("ShaderNodeMixRGB")
        mix.blend_type = "MULTIPLY"
        mix.inputs["Fac"].default_value = 0.25
        links.new(check.outputs["Color"], mix.inputs["Color1"])
        links.new(noise.outputs["Color"], mix.inputs["Color2"])
        links.new(mix.outputs["Color"], bsdf.inputs["Base Color"])
        bsdf.inputs["Roughness"].default_value = t["roughness"]
        return mat
    else:  # a woven cloth: two sets of bands across each other, and fuzz
        weave_x = nodes.new("ShaderNodeTexWave")
        weave_y = nodes.new("ShaderNodeTexWave")
        weave_y.bands_direction = "Y"
        for w in (weave_x, weave_y):
            w.inputs["Scale"].default_value = 1.0
            links.new(mapping.outputs["Vector"], w.inputs["Vector"])
        mult = nodes.new("ShaderNodeMath")
        mult.operation = "MULTIPLY"
        links.new(weave_x.outputs["Fac"], mult.inputs[0])
        links.new(weave_y.outputs["Fac"], mult.inputs[1])
        links.new(mult.outputs["Value"], ramp.inputs["Fac"])
        ramp.color_ramp.elements[0].color = (*[v * 0.7 for v in c1], 1.0)
        ramp.color_ramp.elements[1].color = (*c1, 1.0)
    links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])
    bsdf.inputs["Roughness"].default_value = t["roughness"]
    return mat


# --- objects -------------------------------------------------------------------------------


def add_mesh(m: dict[str, Any], mats: list[Any]) -> Any:
    verts = [to_b(v) for v in m["verts"]]
    faces = []
    for f in m["faces"]:  # every face up (+z), as the card's print faces the camera
        a, b, c = (Vector(verts[i]) for i in f)
        faces.append(f if (b - a).cross(c - a).z >= 0 else [f[0], f[2], f[1]])
    mesh = bpy.data.meshes.new(m["name"])
    mesh.from_pydata(verts, [], faces)
    uv = mesh.uv_layers.new(name="uv")
    for loop in mesh.loops:
        uv.data[loop.index].uv = m["uvs"][loop.vertex_index]
    for poly in mesh.polygons:
        poly.use_smooth = True
    mesh.update()
    obj = bpy.data.objects.new(m["name"], mesh)
    bpy.context.scene.collection.objects.link(obj)
    for mat in mats:
        obj.data.materials.append(mat)
    solid = obj.modifiers.new("thickness", "SOLIDIFY")
    solid.thickness = m["thickness"] * MM
    solid.offset = -1.0
    solid.use_rim = True
    solid.material_offset_rim = 1
    return obj


def add_table(spec: dict[str, Any], centre: tuple[float, float]) -> None:
    bpy.ops.mesh.primitive_plane_add(size=4.0, location=(centre[0], centre[1], 0.0))
    obj = bpy.context.object
    obj.name = "table"
    obj.data.materials.append(table_material(spec["table"]))


def add_lamp(lamp: dict[str, Any], k: int) -> None:
    data = bpy.data.lights.new(f"lamp-{k}", "AREA")
    if lamp.get("length", 0.0) > 0.0:  # a tube: a long thin light, its reflection a streak
        data.shape = "ELLIPSE"
        data.size = lamp["length"] * MM
        data.size_y = 2 * lamp["radius"] * MM
    else:
        data.shape = "DISK"
        data.size = 2 * lamp["radius"] * MM
    data.energy = lamp["power"]
    data.color = lamp["colour"]
    obj = bpy.data.objects.new(f"lamp-{k}", data)
    obj.location = to_b(lamp["position"])
    obj.rotation_euler = (0.0, 0.0, -math.radians(lamp.get("turn", 0.0)))
    obj.visible_camera = False
    bpy.context.scene.collection.objects.link(obj)


def add_world(world: list[float]) -> None:
    w = bpy.data.worlds.new("room")
    w.use_nodes = True
    bg = w.node_tree.nodes["Background"]
    bg.inputs["Color"].default_value = (*world[:3], 1.0)
    bg.inputs["Strength"].default_value = world[3]
    bpy.context.scene.world = w


def _ball(mb: Any, kind: str, at: Vector, direction: Vector | None, radius: float,
          half: float = 0.0, sizes: tuple[float, float, float] | None = None) -> None:
    el = mb.elements.new()
    el.type = kind
    el.co = at
    el.radius = radius
    if kind == "CAPSULE":
        el.size_x = half
    if sizes is not None:
        el.size_x, el.size_y, el.size_z = sizes
    if direction is not None:
        el.rotation = Vector((1.0, 0.0, 0.0)).rotation_difference(direction.normalized())


def add_hand(o: dict[str, Any]) -> None:
    """A hand reaching over the table, palm down, its arm coming in from ``angle`` and
    rising out of the picture (metaballs: a palm, four fingers, a thumb, a forearm)."""
    mb = bpy.data.metaballs.new("hand")
    mb.resolution = 0.004
    mb.render_resolution = 0.003
    mb.threshold = 0.6
    a = math.radians(o["angle"])
    u = vec_b([math.cos(a), math.sin(a), 0.0])  # towards the arm
    v = Vector((0.0, 0.0, 1.0)).cross(u)  # across the palm
    s = o["size"] / 185.0
    palm = Vector(to_b([o["x"], o["y"], o["height"] + 12 * s]))
    _ball(mb, "ELLIPSOID", palm, u, 0.045 * s, sizes=(1.25, 1.05, 0.35))
    tip_z = -o["height"] * MM * 0.6
    for i, (off, length) in enumerate(((-0.024, 0.060), (-0.008, 0.072), (0.008, 0.069),
                                       (0.024, 0.054))):
        base = palm - u * 0.028 * s + v * off * s
        tip = base - u * length * s + v * off * 0.3 * s + Vector((0, 0, tip_z * (0.6 + 0.1 * i)))
        d = tip - base
        _ball(mb, "CAPSULE", (base + tip) / 2, d, 0.0125 * s, d.length / 2)
    thumb0 = palm + v * 0.026 * s + u * 0.005 * s
    thumb1 = thumb0 + (v * 0.035 - u * 0.045) * s + Vector((0, 0, tip_z * 0.5))
    _ball(mb, "CAPSULE", (thumb0 + thumb1) / 2, thumb1 - thumb0, 0.014 * s,
          (thumb1 - thumb0).length / 2)
    wrist = palm + u * 0.035 * s
    elbow = palm + u * 0.40 + Vector((0, 0, 0.22))
    _ball(mb, "CAPSULE", (wrist + elbow) / 2, elbow - wrist, 0.042 * s, (elbow - wrist).length / 2)
    obj = bpy.data.objects.new("hand", mb)
    bpy.context.scene.collection.objects.link(obj)
    mat = plain("skin", o["colour"], 0.45, specular=0.4)
    obj.data.materials.append(mat)


def add_cup(o: dict[str, Any]) -> None:
    """A mug standing on the table (over a piece): walls, a bottom, coffee, a handle."""
    r, h = o["size"] * MM, o["height"] * MM
    x, y, _ = to_b([o["x"], o["y"], 0.0])
    bpy.ops.mesh.primitive_cylinder_add(vertices=64, radius=r, depth=h, location=(x, y, h / 2),
                                        end_fill_type="NOTHING")
    wall = bpy.context.object
    wall.name = "cup"
    solid = wall.modifiers.new("wall", "SOLIDIFY")
    solid.thickness = 0.004
    bpy.ops.object.shade_smooth()
    ceramic = plain("ceramic", o["colour"], 0.08, clearcoat=0.5)
    wall.data.materials.append(ceramic)
    bpy.ops.mesh.primitive_circle_add(vertices=64, radius=r, fill_type="NGON", location=(x, y,
                                                                                      0.002))
    bpy.context.object.name = "cup-bottom"
    bpy.context.object.data.materials.append(ceramic)
    bpy.ops.mesh.primitive_circle_add(vertices=64, radius=r - 0.004, fill_type="NGON",
                                      location=(x, y, h * 0.8))
    bpy.context.object.name = "cup-coffee"
    bpy.context.object.data.materials.append(plain("coffee", [0.05, 0.025, 0.01], 0.05))
    a = math.radians(o["angle"])
    hx, hy, _ = to_b([o["x"] + (o["size"] + 14) * math.cos(a),
                      o["y"] + (o["size"] + 14) * math.sin(a), 0.0])
    bpy.ops.mesh.primitive_torus_add(major_radius=0.024, minor_radius=0.0065,
                                     location=(hx, hy, h * 0.55),
                                     rotation=(math.pi / 2, 0.0, -a + math.pi / 2))
    bpy.context.object.name = "cup-handle"
    bpy.ops.object.shade_smooth()
    bpy.context.object.data.materials.append(ceramic)


def add_camera(c: dict[str, Any]) -> Any:
    data = bpy.data.cameras.new("phone")
    data.type = "PERSP"
    data.sensor_fit = "HORIZONTAL"
    data.sensor_width = 6.4 * (1.0 + c["overscan"])
    data.lens = c["focal_mm"]
    data.clip_start = 0.01
    data.clip_end = 30.0
    obj = bpy.data.objects.new("phone", data)
    right, down, fwd = vec_b(c["right"]), vec_b(c["down"]), vec_b(c["forward"])
    pos = Vector(to_b(c["position"]))
    m = Matrix.Identity(4)
    for i in range(3):
        m[i][0], m[i][1], m[i][2], m[i][3] = right[i], -down[i], -fwd[i], pos[i]
    obj.matrix_world = m
    bpy.context.scene.collection.objects.link(obj)
    bpy.context.scene.camera = obj
    return obj


# --- render and rays -------------------------------------------------------------------------


def setup_render(spec: dict[str, Any], out: str, threads: int) -> None:
    scene = bpy.context.scene
    scene.render.engine = "CYCLES"
    cy = scene.cycles
    cy.device = "CPU"
    cy.samples = spec["samples"]
    cy.use_adaptive_sampling = False
    cy.use_denoising = False
    cy.max_bounces = 4
    cy.diffuse_bounces = 1
    cy.glossy_bounces = 1
    cy.transmission_bounces = 0
    cy.volume_bounces = 0
    cy.transparent_max_bounces = 4
    cy.caustics_reflective = False
    cy.caustics_refractive = False
    cy.sample_clamp_indirect = 5.0
    cy.seed = spec["seed"] % 100_000
    scene.render.threads_mode = "FIXED"
    scene.render.threads = threads
    w, h = spec["camera"]["width"], spec["camera"]["height"]
    k = 1.0 + spec["camera"]["overscan"]
    scene.render.resolution_x = int(round(w * k / 2)) * 2
    scene.render.resolution_y = int(round(h * k / 2)) * 2
    scene.render.resolution_percentage = 100
    scene.view_settings.view_transform = "Standard"
    scene.render.image_settings.file_format = "HDR"
    scene.render.filepath = os.path.join(out, "render.hdr")
    scene.view_layers[0].use_pass_glossy_direct = True
    scene.use_nodes = True
    tree = scene.node_tree
    for n in list(tree.nodes):
        tree.nodes.remove(n)
    layers = tree.nodes.new("CompositorNodeRLayers")
    comp = tree.nodes.new("CompositorNodeComposite")
    tree.links.new(layers.outputs["Image"], comp.inputs["Image"])
    files = tree.nodes.new("CompositorNodeOutputFile")
    files.base_path = out
    files.format.file_format = "HDR"
    files.file_slots[0].path = "glossy"
    tree.links.new(layers.outputs["GlossDir"], files.inputs[0])


def rays(spec: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Per piece, which of its sampled points the camera sees (ray casting from the camera
    to each: seen when the first thing the ray meets is the piece itself, there)."""
    scene = bpy.context.scene
    graph = bpy.context.evaluated_depsgraph_get()
    eye = Vector(to_b(spec["camera"]["position"]))
    out: dict[str, dict[str, str]] = {}
    for m in spec["meshes"]:
        if not m["samples"] and not m["marker"]:
            continue
        seen = {}
        for key in ("samples", "marker"):
            bits = []
            for p in m[key]:
                target = Vector(to_b(p))
                d = target - eye
                dist = d.length
                hit, loc, _, _, obj, _ = scene.ray_cast(graph, eye, d.normalized(),
                                                        distance=dist + 0.0008)
                ok = hit and obj is not None and obj.name == m["name"] and \
                    (loc - target).length < 0.0008
                bits.append("1" if ok else "0")
            seen[key] = "".join(bits)
        out[m["name"]] = seen
    return out


def main() -> None:
    argv = sys.argv[sys.argv.index("--") + 1:]
    spec_path, out = argv[0], argv[1]
    threads = int(argv[2]) if len(argv) > 2 else 1
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    kit = spec["kit"]
    rim = plain("card-edge", [0.82, 0.8, 0.76], 0.8)
    mats: dict[str, Any] = {}
    xs, ys = [], []
    for m in spec["meshes"]:
        key = m["texture"]
        if key not in mats:
            mats[key] = printed(os.path.join(kit, key), spec["paper"], m["cut"])
        add_mesh(m, [mats[key], rim])
        for v in m["verts"][::25]:
            xs.append(v[0])
            ys.append(v[1])
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    add_table(spec, to_b([cx, cy, 0.0])[:2])
    add_world(spec["world"])
    for k, lamp in enumerate(spec["lamps"]):
        add_lamp(lamp, k)
    for o in spec["occluders"]:
        (add_hand if o["kind"] == "hand" else add_cup)(o)
    add_camera(spec["camera"])
    setup_render(spec, out, threads)
    start = time.time()
    bpy.ops.render.render(write_still=True)
    seconds = time.time() - start
    for name in os.listdir(out):  # the file output node numbers its files by frame
        if name.startswith("glossy") and name != "glossy.hdr":
            os.replace(os.path.join(out, name), os.path.join(out, "glossy.hdr"))
    start = time.time()
    seen = rays(spec)
    with open(os.path.join(out, "rays.json"), "w", encoding="utf-8") as f:
        json.dump({"seen": seen, "render_seconds": round(seconds, 2),
                   "ray_seconds": round(time.time() - start, 2),
                   "blender": bpy.app.version_string}, f)


main()
